#pragma once
/// Compressed-column sparsity pattern of a square matrix.
#include <vector>

#include <noether/engine/types.hpp>

namespace noether {

/// Pattern of an n x n sparse matrix in compressed-column form: the row indices of column j are
/// row_indices[column_starts[j] .. column_starts[j+1]), sorted ascending. Values live elsewhere,
/// in an array of nnz() doubles in the same order, so one pattern serves every Newton iteration.
struct CscPattern {
  Index n = 0;
  std::vector<Index> column_starts;  ///< n + 1 entries
  std::vector<Index> row_indices;    ///< nnz entries
  Index nnz() const { return static_cast<Index>(row_indices.size()); }
  /// Slot of entry (row, col) in the value array, or -1 when it is structurally zero.
  Index find(Index row, Index col) const;
};

}  // namespace noether
