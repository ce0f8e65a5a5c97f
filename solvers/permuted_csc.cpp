#include "solvers/permuted_csc.hpp"

#include <algorithm>
#include <utility>

#include "engine/parallel_ranges.hpp"
#include "engine/permutation.hpp"

namespace noether {

PermutedCsc permute_csc(const CscPattern& pattern, std::span<const Index> rows, std::span<const Index> columns) {
  const Index n = pattern.n;
  const std::vector<Index> new_row = inverse_permutation(rows, n, "permute_csc: rows");
  inverse_permutation(columns, n, "permute_csc: columns");  // only to check it: B's columns are visited in order
  PermutedCsc b;
  b.column_starts.reserve(static_cast<std::size_t>(n) + 1);
  b.row_indices.reserve(static_cast<std::size_t>(pattern.nnz()));
  b.position.resize(static_cast<std::size_t>(pattern.nnz()));
  b.column_starts.push_back(0);
  std::vector<std::pair<Index, Index>> column;  // (row of B, slot of A)
  for (const Index source_column : columns) {
    column.clear();
    for (Index slot = pattern.column_starts[static_cast<std::size_t>(source_column)];
         slot < pattern.column_starts[static_cast<std::size_t>(source_column) + 1]; ++slot)
      column.emplace_back(new_row[static_cast<std::size_t>(pattern.row_indices[static_cast<std::size_t>(slot)])], slot);
    std::sort(column.begin(), column.end());
    for (const auto& [row, slot] : column) {
      b.position[static_cast<std::size_t>(slot)] = static_cast<Index>(b.row_indices.size());
      b.row_indices.push_back(row);
    }
    b.column_starts.push_back(static_cast<Index>(b.row_indices.size()));
  }
  return b;
}

void permute_values(const PermutedCsc& layout, std::span<const double> values, std::span<double> permuted_values) {
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(static_cast<Index>(layout.position.size()), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) permuted_values[at(layout.position[at(k)])] = values[at(k)];
  });
}

}  // namespace noether
