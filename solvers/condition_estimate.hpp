#pragma once
/// The 1-norm condition number of a matrix known only through solves with it.
#include <functional>

#include <noether/engine/types.hpp>

namespace noether {

/// An estimate of ||B^{-1}||_1 for an n x n matrix B (n >= 1) of which only the products
/// x <- B^{-1} x (`solve`) and x <- B^{-T} x (`solve_transposed`) are available, in place on a
/// vector of n entries: Hager's method as refined by Higham, LAPACK's xLACN2 [Higham1988]. A
/// gradient ascent of ||B^{-1} x||_1 over the vertices of the unit ball (at most five solves with
/// each of B and B^T), then one solve with an alternating vector that guards against the ascent's
/// blind spots. The estimate never exceeds ||B^{-1}||_1 (it is ||B^{-1} x||_1 for vectors with
/// ||x||_1 <= 1) and is almost always within a factor 3 of it [Higham1988].
/// With ||B||_1 it gives the condition number kappa_1(B) = ||B||_1 ||B^{-1}||_1.
double estimate_inverse_norm1(Index n, const std::function<void(VectorRef)>& solve,
                              const std::function<void(VectorRef)>& solve_transposed);

}  // namespace noether
