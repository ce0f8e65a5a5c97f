#include <noether/solvers/condition_estimate.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace noether {
namespace {

/// xi_i = sign(x_i), with sign(0) = +1 as in xLACN2.
Vector signs(const Vector& x) { return x.unaryExpr([](double value) { return value >= 0.0 ? 1.0 : -1.0; }); }

/// The index of the largest |x_i| (the first one on ties).
Index largest_entry(const Vector& x) {
  Index j = 0;
  x.cwiseAbs().maxCoeff(&j);
  return j;
}

}  // namespace

double estimate_inverse_norm1(Index n, const std::function<void(VectorRef)>& solve,
                              const std::function<void(VectorRef)>& solve_transposed) {
  if (n < 1) throw std::invalid_argument("estimate_inverse_norm1: the matrix needs at least one row, got " + std::to_string(n));
  Vector x = Vector::Constant(n, 1.0 / static_cast<double>(n));
  solve(x);
  if (n == 1) return std::abs(x(0));
  double estimate = x.lpNorm<1>();
  Vector xi = signs(x);
  x = xi;
  solve_transposed(x);
  Index j = largest_entry(x);
  constexpr int kMaxIterations = 5;
  for (int iteration = 2; iteration <= kMaxIterations; ++iteration) {
    x.setZero();
    x(j) = 1.0;
    solve(x);  // column j of B^{-1}
    const double previous = estimate;
    estimate = x.lpNorm<1>();
    const Vector xi_next = signs(x);
    if (xi_next == xi || estimate <= previous) {  // no ascent left: the sign vector repeats
      estimate = std::max(estimate, previous);
      break;
    }
    xi = xi_next;
    x = xi;
    solve_transposed(x);
    const Index last = j;
    j = largest_entry(x);
    if (std::abs(x(last)) == std::abs(x(j))) break;  // the gradient points at the column just taken
  }
  // The alternating vector x_i = (-1)^i (1 + i / (n - 1)): ||B^{-1} x||_1 / ||x||_1 with ||x||_1 = 3n/2.
  for (Index i = 0; i < n; ++i)
    x(i) = (i % 2 == 0 ? 1.0 : -1.0) * (1.0 + static_cast<double>(i) / static_cast<double>(n - 1));
  solve(x);
  return std::max(estimate, 2.0 * x.lpNorm<1>() / (3.0 * static_cast<double>(n)));
}

}  // namespace noether
