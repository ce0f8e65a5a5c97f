#include <noether/steppers/lobatto.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace noether {
namespace {

/// P_n(x) and P_{n-1}(x) by the three-term recurrence (n >= 1).
std::pair<double, double> legendre(int n, double x) {
  double previous = 1.0, current = x;
  for (int k = 2; k <= n; ++k) {
    const double next = ((2.0 * k - 1.0) * x * current - (k - 1.0) * previous) / k;
    previous = current;
    current = next;
  }
  return {current, previous};
}

/// A root of P'_n in (-1, 1) by Newton from x, with P'_n = n (x P_n - P_{n-1}) / (x^2 - 1) and
/// P''_n = (2 x P'_n - n (n + 1) P_n) / (1 - x^2).
double derivative_root(int n, double x) {
  for (int iteration = 0; iteration < 100; ++iteration) {
    const auto [p, p_previous] = legendre(n, x);
    const double d1 = n * (x * p - p_previous) / (x * x - 1.0);
    const double d2 = (2.0 * x * d1 - n * (n + 1.0) * p) / (1.0 - x * x);
    const double step = d1 / d2;
    x -= step;
    if (std::abs(step) <= 1e-16) break;
  }
  return x;
}

}  // namespace

QuadratureRule lobatto_rule(int points) {
  if (points < 2 || points > 64) {
    std::string message = "a Gauss-Lobatto rule has 2 to 64 points (its end points 0 and 1 among them), got ";
    message += std::to_string(points);
    throw std::invalid_argument(message);
  }
  const int n = points - 1;  // interior nodes: the roots of P'_n
  QuadratureRule rule;
  rule.nodes.resize(static_cast<std::size_t>(points));
  rule.weights.resize(static_cast<std::size_t>(points));
  // Nodes j <= n/2 from Newton, started at the Chebyshev-Gauss-Lobatto points next to each root of
  // P'_n; the others mirrored (c -> 1 - c, same weight).
  for (int j = 0; 2 * j <= n; ++j) {
    const double x = j == 0 ? -1.0 : 2 * j == n ? 0.0 : derivative_root(n, -std::cos(std::numbers::pi * j / n));
    const double p = legendre(n, x).first;
    const auto first = static_cast<std::size_t>(j), last = static_cast<std::size_t>(n - j);
    rule.nodes[first] = 0.5 * (1.0 + x);
    rule.nodes[last] = 1.0 - rule.nodes[first];
    rule.weights[first] = rule.weights[last] = 1.0 / (n * (n + 1.0) * p * p);
  }
  return rule;
}

}  // namespace noether
