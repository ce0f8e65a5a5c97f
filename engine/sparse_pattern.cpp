#include <noether/engine/sparse_pattern.hpp>

#include <algorithm>

namespace noether {

Index CscPattern::find(Index row, Index col) const {
  const auto begin = row_indices.begin() + column_starts[static_cast<std::size_t>(col)];
  const auto end = row_indices.begin() + column_starts[static_cast<std::size_t>(col) + 1];
  const auto it = std::lower_bound(begin, end, row);
  return (it != end && *it == row) ? static_cast<Index>(it - row_indices.begin()) : -1;
}

}  // namespace noether
