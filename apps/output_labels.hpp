#pragma once
/// The labels under which the outputs name a model's values, in the whole model's order: each
/// coordinate's "<block>.<coordinate>" (System::coordinate_label) and each constraint row's
/// "<constraint>[<row>]" (constraint_row_label): the keys of final_state.json and the columns of
/// timeseries.csv. One process reads them off its System; rank 0 of a run over parts, whose System
/// is its part, off the lists gathered from the parts (RunParts::labels).
#include <functional>
#include <string>
#include <vector>

#include <noether/engine/system.hpp>

namespace noether {

/// "<constraint>[<row>]": the label of a constraint's row.
std::string constraint_row_label(const Constraint& constraint, Index row);
/// The same appended to `text`.
void append_constraint_row_label(std::string& text, const Constraint& constraint, Index row);

class OutputLabels {
 public:
  using Visit = std::function<void(const std::string&)>;
  virtual ~OutputLabels() = default;
  /// The whole model's coordinates and constraint rows.
  virtual Index coordinates() const = 0;
  virtual Index constraint_rows() const = 0;
  /// Each label, in order, given to `visit` in turn.
  virtual void for_each_coordinate(const Visit& visit) const = 0;
  virtual void for_each_constraint_row(const Visit& visit) const = 0;
};

/// The labels of a whole System (which must outlive this object).
class SystemLabels final : public OutputLabels {
 public:
  explicit SystemLabels(const System& system) : system_(system) {}
  Index coordinates() const override { return system_.num_coordinates(); }
  Index constraint_rows() const override { return system_.num_multipliers(); }
  void for_each_coordinate(const Visit& visit) const override;
  void for_each_constraint_row(const Visit& visit) const override;

 private:
  const System& system_;
};

/// Labels listed in the whole's order.
class ListedLabels final : public OutputLabels {
 public:
  ListedLabels(std::vector<std::string> coordinates, std::vector<std::string> constraint_rows)
      : coordinates_(std::move(coordinates)), rows_(std::move(constraint_rows)) {}
  Index coordinates() const override { return static_cast<Index>(coordinates_.size()); }
  Index constraint_rows() const override { return static_cast<Index>(rows_.size()); }
  void for_each_coordinate(const Visit& visit) const override;
  void for_each_constraint_row(const Visit& visit) const override;

 private:
  std::vector<std::string> coordinates_, rows_;
};

/// A System's labels listed: its coordinates' (System order) and its constraint rows'.
std::vector<std::string> coordinate_labels(const System& system);
std::vector<std::string> constraint_row_labels(const System& system);

}  // namespace noether
