#pragma once
/// Fill-reducing column orderings for sparse LU with partial pivoting, chosen per matrix.
#include <span>
#include <string>
#include <vector>

#include <noether/engine/types.hpp>

namespace noether {

/// How a column ordering was found, and what it predicts.
struct LuColumnOrdering {
  std::vector<Index> columns;  ///< columns[k] = the column of A eliminated k-th (size n)
  std::string method;          ///< "colamd", "given" or "nested dissection"
  double predicted_flops = 0;  ///< of the Cholesky factorization of (A Q)^T (A Q), the bound's measure
};

/// A column permutation Q of the n x n pattern A (compressed columns: column_starts n + 1, row
/// indices sorted or not) for the LU factorization P A Q = L U with any row pivoting P.
///
/// The nonzeros of L and U are bounded by those of the Cholesky factor of (A Q)^T (A Q)
/// [GeorgeNg1987], whatever rows the pivoting picks, so the candidates are judged for A^T A:
///  - COLAMD's column ordering (cheap; best on most chains and other narrow-banded graphs);
///  - the given order, Q = I: the columns as numbered, which the steppers number body by body
///    (engine/unknown_ordering.hpp). On a chain with many multipliers per body (3D revolute joints)
///    COLAMD's choices fill in more than the plain band, and by how much varies with n, while the
///    band's fill per body does not (docs/notebook.md, 'The given order as a KLU ordering');
///  - CHOLMOD's nested dissection of A^T A (METIS bisection with constrained minimum degree; best
///    where closed loops make the graph two-dimensional, e.g. grid2d), tried only when COLAMD's
///    factor does 100 or more flops per nonzero, because its analysis costs an order of
///    magnitude more than COLAMD's (docs/notebook.md, 'Nested dissection for the grids').
/// CHOLMOD's symbolic analysis of each candidate gives the flops of that Cholesky factorization;
/// the cheapest candidate is returned (COLAMD on ties). An ordering of A + A^T (AMD) assumes
/// diagonal pivots, which the zero block of a saddle-point Newton matrix does not have, and the
/// bound cannot rate it; KluSolver judges it by a trial factorization instead
/// (solvers/linear/klu_solver.hpp).
///
/// No nested dissection when CHOLMOD was built without it (METIS). Throws
/// std::runtime_error when CHOLMOD fails otherwise (out of memory, too large), with its reason.
LuColumnOrdering order_columns_for_lu(Index n, std::span<const Index> column_starts, std::span<const Index> row_indices);

}  // namespace noether
