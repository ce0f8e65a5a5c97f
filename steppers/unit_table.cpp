#include <noether/steppers/unit_table.hpp>

namespace noether {

Index UnitTable::add(UnitLayout layout, std::string owner) {
  layouts_.push_back(std::move(layout));
  owners_.push_back(std::move(owner));
  return static_cast<Index>(owners_.size()) - 1;
}

std::string UnitTable::describe_row(Index unit, const std::string& row_label) const {
  if (unit < 0) return row_label;
  return row_label + "; largest contribution from " + owner(unit);
}

std::vector<Index> shifted(const std::vector<Index>& dofs, Index offset) {
  std::vector<Index> out(dofs);
  for (Index& i : out) i += offset;
  return out;
}

std::vector<Index> index_range(Index first, Index count, Index offset) {
  std::vector<Index> out(static_cast<std::size_t>(count));
  for (Index i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = first + i + offset;
  return out;
}

}  // namespace noether
