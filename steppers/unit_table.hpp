#pragma once
/// Bookkeeping shared by steppers: the assembly units of a step and who owns each of them.
#include <string>
#include <vector>

#include <noether/engine/assembler.hpp>

namespace noether {

/// Units of a stepper's Newton system with the name of the element (or coordinate block) behind
/// each, so a bad residual row can be traced to the element that wrote most of it.
class UnitTable {
 public:
  /// Appends a unit; returns its index.
  Index add(UnitLayout layout, std::string owner);
  Index size() const { return static_cast<Index>(owners_.size()); }
  const std::string& owner(Index unit) const { return owners_[static_cast<std::size_t>(unit)]; }
  /// Moves the layouts out (the table keeps the owners).
  std::vector<UnitLayout> take_layouts() { return std::move(layouts_); }

  /// "<row_label>; largest contribution from <owner>", the owner of `unit` (row_label alone when
  /// unit < 0, i.e. no unit writes the row).
  std::string describe_row(Index unit, const std::string& row_label) const;

 private:
  std::vector<UnitLayout> layouts_;
  std::vector<std::string> owners_;
};

/// Local dofs: the element's coordinate dofs shifted by `offset` (the start of a coordinate-sized
/// field in the unknown vector).
std::vector<Index> shifted(const std::vector<Index>& dofs, Index offset);
/// [first, first + count) shifted by offset.
std::vector<Index> index_range(Index first, Index count, Index offset);

}  // namespace noether
