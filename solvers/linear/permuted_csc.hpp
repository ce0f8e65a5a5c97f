#pragma once
/// A square sparse matrix A laid out again as B = A(rows, columns), for a backend that factors B
/// and reads it fastest in its own elimination order.
#include <span>
#include <vector>

#include <noether/engine/sparse_pattern.hpp>

namespace noether {

/// The compressed-column pattern of B, B(i, j) = A(rows[i], columns[j]) (n x n, row indices
/// sorted within each column), and where each entry of B comes from: entry k of B is entry
/// source_slot[k] of A's value array.
struct PermutedCsc {
  std::vector<Index> column_starts;  ///< n + 1
  std::vector<Index> row_indices;    ///< nnz
  std::vector<Index> source_slot;    ///< nnz
};

/// Precondition: rows and columns are permutations of [0, pattern.n) (checked: throws
/// std::invalid_argument naming the bad entry).
PermutedCsc permute_csc(const CscPattern& pattern, std::span<const Index> rows, std::span<const Index> columns);

/// permuted_values[k] = values[layout.source_slot[k]] for every entry k of B (both nnz), in
/// parallel; every entry is copied alone, so the result does not depend on the number of threads.
void gather_permuted_values(const PermutedCsc& layout, std::span<const double> values,
                            std::span<double> permuted_values);

}  // namespace noether
