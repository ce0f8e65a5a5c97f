#pragma once
/// Gauss-Lobatto quadrature on [0, 1].
#include <vector>

namespace noether {

/// A quadrature rule on [0, 1]: integral_0^1 f(c) dc ~ sum_j weights[j] f(nodes[j]).
struct QuadratureRule {
  std::vector<double> nodes;    ///< increasing, in [0, 1]
  std::vector<double> weights;  ///< positive, summing to 1
};

/// The Gauss-Lobatto rule with `points` nodes (2 to 64) on [0, 1] [Abramowitz-Stegun 25.4.32,
/// HairerLubichWanner2006 Sec. II.1]: the end points 0 and 1 and the points - 2 roots of P'_{points-1}
/// (Legendre polynomial, mapped from [-1, 1]); weights 1/(N (N - 1) P_{N-1}(x_j)^2) on [0, 1], N = points.
/// Exact for polynomials of degree <= 2 points - 3; symmetric (c -> 1 - c). Throws
/// std::invalid_argument for another number of points.
QuadratureRule lobatto_rule(int points);

}  // namespace noether
