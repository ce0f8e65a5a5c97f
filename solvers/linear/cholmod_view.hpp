#pragma once
/// A non-owning CHOLMOD view of a compressed-column matrix.
#include <span>

#include <cholmod.h>

#include <noether/engine/types.hpp>

namespace noether {

/// What a CHOLMOD view declares of the arrays it points to.
struct CholmodViewKind {
  int stype = 0;        ///< 0: unsymmetric; 1: symmetric, upper triangle stored (entries below ignored)
  bool sorted = false;  ///< row indices ascending within each column
};

/// The n x n matrix with the given columns (n + 1 starts), row indices and values (null: the
/// pattern only), as a cholmod_sparse that owns nothing. CHOLMOD only reads the arrays; its struct
/// takes them non-const.
inline cholmod_sparse cholmod_view(Index n, std::span<const Index> column_starts, std::span<const Index> row_indices,
                                   const double* values, CholmodViewKind kind) {
  cholmod_sparse A{};
  A.nrow = A.ncol = static_cast<std::size_t>(n);
  A.nzmax = row_indices.size();
  A.p = const_cast<Index*>(column_starts.data());
  A.i = const_cast<Index*>(row_indices.data());
  A.x = const_cast<double*>(values);
  A.stype = kind.stype;
  A.itype = CHOLMOD_INT;
  A.xtype = values ? CHOLMOD_REAL : CHOLMOD_PATTERN;
  A.dtype = CHOLMOD_DOUBLE;
  A.sorted = kind.sorted ? 1 : 0;
  A.packed = 1;
  return A;
}

}  // namespace noether
