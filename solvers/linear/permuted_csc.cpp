#include <noether/solvers/linear/permuted_csc.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <noether/engine/parallel_ranges.hpp>

namespace noether {
namespace {

/// inverse[order[k]] = k; throws unless order is a permutation of [0, n).
std::vector<Index> inverse_permutation(std::span<const Index> order, Index n, const char* what) {
  if (static_cast<Index>(order.size()) != n)
    throw std::invalid_argument(std::string("permute_csc: ") + what + " holds " + std::to_string(order.size()) +
                                " entries, expected " + std::to_string(n));
  std::vector<Index> inverse(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < n; ++k) {
    const Index i = order[static_cast<std::size_t>(k)];
    if (i < 0 || i >= n || inverse[static_cast<std::size_t>(i)] != -1)
      throw std::invalid_argument(std::string("permute_csc: ") + what + "[" + std::to_string(k) + "] = " +
                                  std::to_string(i) + " is out of range or repeated: not a permutation of 0.." +
                                  std::to_string(n - 1));
    inverse[static_cast<std::size_t>(i)] = k;
  }
  return inverse;
}

}  // namespace

PermutedCsc permute_csc(const CscPattern& pattern, std::span<const Index> rows, std::span<const Index> columns) {
  const Index n = pattern.n;
  const std::vector<Index> new_row = inverse_permutation(rows, n, "rows");
  inverse_permutation(columns, n, "columns");  // only to check it: B's columns are visited in order
  PermutedCsc b;
  b.column_starts.reserve(static_cast<std::size_t>(n) + 1);
  b.row_indices.reserve(static_cast<std::size_t>(pattern.nnz()));
  b.source_slot.reserve(static_cast<std::size_t>(pattern.nnz()));
  b.column_starts.push_back(0);
  std::vector<std::pair<Index, Index>> column;  // (row of B, slot of A)
  for (const Index source_column : columns) {
    column.clear();
    for (Index slot = pattern.column_starts[static_cast<std::size_t>(source_column)];
         slot < pattern.column_starts[static_cast<std::size_t>(source_column) + 1]; ++slot)
      column.emplace_back(new_row[static_cast<std::size_t>(pattern.row_indices[static_cast<std::size_t>(slot)])], slot);
    std::sort(column.begin(), column.end());
    for (const auto& [row, slot] : column) {
      b.row_indices.push_back(row);
      b.source_slot.push_back(slot);
    }
    b.column_starts.push_back(static_cast<Index>(b.row_indices.size()));
  }
  return b;
}

void gather_permuted_values(const PermutedCsc& layout, std::span<const double> values,
                            std::span<double> permuted_values) {
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(static_cast<Index>(layout.source_slot.size()), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) permuted_values[at(k)] = values[at(layout.source_slot[at(k)])];
  });
}

}  // namespace noether
