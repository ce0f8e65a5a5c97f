#pragma once
/// The directions in which a square matrix known only through solves is numerically singular.
#include <functional>

#include <noether/engine/types.hpp>

namespace noether {

/// For the row-scaled matrix S = W^{-1} B (B n x n, nonsingular, known through x <- B^{-1} x
/// `solve` and x <- B^{-T} x `solve_transposed`, in place on n entries; W = diag(weights),
/// weights >= 0): an orthonormal basis, one column each, of the left singular vectors u_i of S
/// whose singular values sigma_i lie below `threshold` (n x 0 when there are none). S's small
/// singular values are the largest of S^{-1}, so they are found by subspace iteration on
/// (S S^T)^{-1} = W B^{-T} B^{-1} W from a fixed start (the same basis for the same matrix), then
/// the singular values of S^{-1} Z over the block Z: a block of 4 columns, doubled while all its
/// singular values lie below the threshold (up to n). The gap that matters, between the sigma_i
/// below the threshold and the rest, is wide where this is used (a constraint Jacobian that loses
/// rank: 1e-7 against 1 and more), so three iterations per block suffice. A row of weight 0 (one
/// that must hold exactly) has no component in the basis. Costs 4 k solves with B and 3 k
/// with B^T per block of k columns.
Matrix near_null_left_directions(Index n, ConstVectorRef weights, double threshold,
                                 const std::function<void(VectorRef)>& solve,
                                 const std::function<void(VectorRef)>& solve_transposed);

}  // namespace noether
