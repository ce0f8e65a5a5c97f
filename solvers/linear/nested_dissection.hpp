#pragma once
/// Nested-dissection orderings (METIS) of a sparse matrix's graph, for any sparse direct solver.
#include <span>
#include <vector>

#include <noether/engine/sparse_pattern.hpp>

namespace noether {

/// A symmetric fill-reducing ordering of the n x n pattern A (compressed columns: column_starts
/// n + 1, row indices sorted or not, duplicates allowed): METIS_NodeND's nested dissection of the
/// graph of A + A^T without its diagonal. order[k] is the row and column of A eliminated k-th, so
/// a solver factors A(order, order).
///
/// Nested dissection splits the graph by small vertex separators and eliminates each separator
/// after the two parts it separates: on a mesh-like graph (a mechanism of many closed loops, such
/// as grid2d) the factors of an n-vertex planar graph hold O(n log n) entries and cost O(n^1.5)
/// flops, against AMD's larger fronts there; on a chain or a tree a minimum-degree ordering is as
/// good and cheaper to find. It is an ordering for diagonal pivots: a solver with partial pivoting
/// (KLU, UMFPACK, MUMPS) may leave the diagonal where A has zeros there (the multipliers' block of
/// a saddle-point matrix) and fill in more than the ordering predicts.
///
/// Deterministic: METIS's seed is fixed, so the same pattern gives the same order on every run.
/// Throws std::invalid_argument for arrays that do not describe an n x n pattern (naming the
/// entry) and std::runtime_error when METIS fails (out of memory), with its status.
std::vector<Index> nested_dissection_order(Index n, std::span<const Index> column_starts,
                                           std::span<const Index> row_indices);
std::vector<Index> nested_dissection_order(const CscPattern& pattern);

/// position[order[k]] = k: where each row and column of A comes in the elimination order. This is
/// the form some solvers take a given ordering in (MUMPS's PERM_IN with ICNTL(7) = 1 is
/// position[i] + 1 for variable i + 1). Precondition: order is a permutation of [0, order.size()).
std::vector<Index> elimination_positions(std::span<const Index> order);

}  // namespace noether
