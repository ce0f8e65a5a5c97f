#pragma once
/// Fill-reducing column orderings for sparse LU with partial pivoting, chosen per matrix.
#include <span>
#include <string>
#include <vector>

#include "engine/types.hpp"

namespace noether {

/// How a column ordering was found, and what it predicts.
struct LuColumnOrdering {
  std::vector<Index> columns;  ///< columns[k] = the column of A eliminated k-th (size n)
  std::string method;          ///< "colamd" or "nested dissection"
  double predicted_flops = 0;  ///< of the Cholesky factorization of (A Q)^T (A Q), the bound's measure
};

/// A column permutation Q of the n x n pattern A (compressed columns: column_starts n + 1, row
/// indices sorted or not) for the LU factorization P A Q = L U with any row pivoting P.
///
/// The nonzeros of L and U are bounded by those of the Cholesky factor of (A Q)^T (A Q) (George
/// and Ng), whatever rows the pivoting picks, so both candidates order the columns of A for
/// A^T A: COLAMD (cheap; best on chains and other narrow-banded graphs) and CHOLMOD's nested
/// dissection of A^T A (METIS bisection with constrained minimum degree; best where closed loops
/// make the graph two-dimensional, e.g. grid2d). CHOLMOD's symbolic analysis of each candidate
/// gives the flops of that Cholesky factorization; the cheaper candidate is returned. An ordering
/// of A + A^T (AMD) would assume diagonal pivots, which the zero block of a saddle-point Newton
/// matrix does not have.
///
/// COLAMD alone when CHOLMOD was built without nested dissection (METIS). Throws
/// std::runtime_error when CHOLMOD fails otherwise (out of memory, too large), with its reason.
LuColumnOrdering order_columns_for_lu(Index n, std::span<const Index> column_starts, std::span<const Index> row_indices);

}  // namespace noether
