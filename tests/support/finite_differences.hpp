#pragma once
/// Central finite differences for derivative tests of elements.
#include <functional>

#include <noether/engine/types.hpp>

namespace noether::testing {

/// d f / d x at x by central differences with step `step` (m x n for f: R^n -> R^m).
Matrix central_difference_jacobian(const std::function<Vector(const Vector&)>& f, const Vector& x, double step = 1e-6);
/// Gradient of a scalar function (n).
Vector central_difference_gradient(const std::function<double(const Vector&)>& f, const Vector& x, double step = 1e-6);
/// A reproducible pseudo-random vector with entries in [-scale, scale].
Vector random_vector(Index n, unsigned seed, double scale = 1.0);
/// A reproducible pseudo-random rows x cols matrix, entries in [-1, 1], with every third entry
/// ((i + 2 j) % 3 == 0) exactly zero: a dense matrix that stored sparsely skips entries.
Matrix random_matrix_with_zeros(Index rows, Index cols, unsigned seed);

}  // namespace noether::testing
