#pragma once
/// A run over parts (docs/distributed.md, "Stage 4"): each process of an MPI job builds and steps
/// its part of the model (apps/model/model_part.hpp); what the run reports of the whole is summed
/// or maximized over the processes, and what rank 0 writes of the whole state (the time series
/// rows, final_state.json) is brought there a range of the whole at a time as it is written, at
/// the written steps only.
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <noether/apps/final_state.hpp>
#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/output_labels.hpp>
#include <noether/apps/part_gather.hpp>
#include <noether/apps/reaction_columns.hpp>
#include <noether/engine/distribution.hpp>
#include <noether/engine/state.hpp>

namespace noether {

struct SystemPart;
class RunParts;

/// A part's state as final_state.json lists the whole's (StateEntries): each kind's entries are
/// brought to rank 0 a range of the whole at a time (PartGather::for_each), so that no process
/// holds the whole state or the labels of the whole or of its part. Collective: every process
/// takes each kind once, q, v, p, then lambda; rank 0 visits them as it writes the file, the
/// others visit nothing and call finish(), which rank 0 calls too once the file is written or has
/// failed, so that every process takes part in the same exchanges.
class PartStateEntries final : public StateEntries {
 public:
  /// part_state of parts' model; both must outlive this object.
  PartStateEntries(const RunParts& parts, const State& part_state) : parts_(parts), state_(part_state) {}
  /// Throws std::logic_error when asked for another kind than the next.
  void for_each(Kind kind, const Visit& visit) const override;
  /// Brings the kinds not asked for yet, visiting nothing.
  void finish() const;

 private:
  const RunParts& parts_;
  const State& state_;
  mutable int next_ = 0;  ///< the kinds brought so far (Kind's values below it)
};

/// The whole model's labels (OutputLabels) as the time series' header takes them, brought to rank
/// 0 a range of the whole at a time (PartGather::for_each) so that no process lists them all.
/// Collective, as PartStateEntries: every process takes the coordinates' labels, then the
/// constraint rows', once each (for_each_timeseries_column's order); rank 0 visits them as it
/// writes the header, the others visit nothing and call finish(), as rank 0 does once the header
/// is written or has failed.
class PartLabels final : public OutputLabels {
 public:
  /// parts must outlive this object.
  explicit PartLabels(const RunParts& parts) : parts_(parts) {}
  Index coordinates() const override;
  Index constraint_rows() const override;
  /// Throw std::logic_error when not asked for in this order.
  void for_each_coordinate(const Visit& visit) const override;
  void for_each_constraint_row(const Visit& visit) const override;
  /// Brings the labels not asked for yet, visiting nothing.
  void finish() const;

 private:
  /// Brings the coordinates' (rows false) or the rows' labels, the next in order.
  void bring(bool rows, const Visit& visit) const;

  const RunParts& parts_;
  mutable int next_ = 0;  ///< 0: the coordinates' next, 1: the rows', 2: done
};

/// Runs `task` on every process of a run over parts, where what it refuses (std::invalid_argument)
/// may differ between the processes (each checks its own part): a refusal on any process is a
/// refusal on every one, in the words of the lowest process that refused (first_error), so that
/// none goes on alone into a collective call. A process that refused rethrows its own exception;
/// the others throw std::invalid_argument "process <p>: <its words>". Collective.
void agreed_over_parts(const Distribution& processes, const std::function<void()>& task);

/// A process's part of a described model, as a Model to run (its probes one per described probe,
/// a position only where this process evaluates it, every dimension agreed; its invariants over
/// its own bodies), with how it sits in the whole.
class RunParts {
 public:
  /// Describes and builds this process's part of `model`, the bodies divided into contiguous
  /// blocks of the coupling graph (block_processes of its outline's coupling). Collective. Throws
  /// ModelDescriptionError as build_model_part does; std::invalid_argument for what a run over
  /// parts cannot report yet (actuators), naming it. What model.part holds (a scene's text) is
  /// let go once the part is described, before it is built.
  RunParts(std::shared_ptr<const Distribution> processes, PartedModel model);

  const Distribution& processes() const { return *processes_; }
  /// The part as a Model (its system the part's; its invariants over the bodies it owns, summed
  /// over the processes the whole's).
  const Model& model() const { return model_; }
  /// The description of the part (the drawing's), with each body's and joint's number in the
  /// whole; until forget_description.
  const PartDescription& description() const;
  /// Frees the part's description (a run keeps it until its drawing is made).
  void forget_description() { description_.reset(); }
  /// Each invariant's size, the same on every process (a part that owns none of its bodies
  /// evaluates it to an empty vector: its share is zero).
  const std::vector<Index>& invariant_sizes() const { return invariant_sizes_; }
  /// How the part sits in the whole, for StepperOptions::part.
  std::shared_ptr<const SystemPart> system_part() const { return system_part_; }

  /// The process of each coordinate block of the part (its System's order): this one's, or a
  /// ghost's owner.
  std::vector<int> block_processes() const;

  /// The whole model's numbers of coordinates and of constraint rows.
  Index whole_coordinate_count() const { return coordinates_->whole_size(); }
  Index whole_row_count() const { return rows_->whole_size(); }
  /// Collective: at rank 0 visit(label, value) of every coordinate of the whole (the values of
  /// `values`, the part's q, v or p) or, with `rows`, every constraint row (`values` the part's
  /// multipliers), in the whole's order (PartGather::for_each); elsewhere no visit. An empty
  /// `values` gives the labels alone (each value NaN).
  void for_each_entry(bool rows, ConstVectorRef values, const PartGather::Visit& visit) const;
  /// The same with the values alone, each given to `value` (a time series row's q or g).
  void for_each_value(bool rows, ConstVectorRef values, const std::function<void(double)>& value) const;

  /// Collective: numbers the part's reaction columns (`columns`, of the part's system) among the
  /// whole model's, its joints in the whole's constraint order. Before the two below.
  void number_reactions(const ReactionColumns& columns);
  /// Collective: at rank 0 the whole model's reaction columns' names; elsewhere none.
  std::vector<std::string> reaction_labels(const ReactionColumns& columns) const;
  /// Collective: at rank 0 the whole model's reaction columns' values, of the parts' `values`.
  std::vector<double> whole_reactions(std::span<const double> values) const;

 private:
  std::shared_ptr<const Distribution> processes_;
  std::optional<PartDescription> description_;
  Model model_;
  std::shared_ptr<const SystemPart> system_part_;
  std::vector<Index> owned_;  ///< the part's coordinates this process owns (System order)
  std::vector<Index> rows_in_whole_;  ///< each multiplier row's number in the whole (whole_multiplier_rows)
  std::vector<Index> invariant_sizes_;
  std::optional<PartGather> coordinates_, rows_, reactions_;
};

}  // namespace noether
