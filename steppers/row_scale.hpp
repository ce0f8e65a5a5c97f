#pragma once
/// The rounding floor of the step rows (TermOutput::floor).
///
/// Newton measures each row of the step equations against the magnitude of the terms that make it
/// up (solvers/newton.hpp). When a body is at rest and no force acts along a coordinate, every
/// term of that coordinate's rows is a velocity, an increment or a multiplier whose exact value is
/// 0, and the row holds only the rounding noise of the linear solves: its terms cannot measure it.
/// Such rows are met once Newton stagnates within their rounding floor, the effect of rounding the
/// positions, eps ell with ell = max_j |q1_j| over the element's coordinates:
///   - rows an inertia element writes (momentum balance, position update, Legendre map):
///     eps max|M| ell / |h|, the momentum of a velocity eps ell / |h| (eps ell over one step);
///   - position constraints g(q1) = 0: eps times the terms of G(q1) times ell;
///   - velocity constraints G u = 0: eps times the terms of G times ell / |h|.
#include <cmath>
#include <limits>

#include <noether/engine/scheme_assembly.hpp>

namespace noether {

/// Machine epsilon of double: the relative rounding error of a coordinate.
inline constexpr double kRoundingError = std::numeric_limits<double>::epsilon();

/// ell = max_j |q_j| over an element's coordinates q (n), 0 for none.
inline double coordinate_size(const LocalVector& q) { return q.size() > 0 ? q.cwiseAbs().maxCoeff() : 0.0; }

/// eps ell / |h|: the velocity of rounding the coordinates q1 (n) once over a step h.
inline double rounding_velocity(const LocalVector& q1, double h) {
  return kRoundingError * coordinate_size(q1) / std::abs(h);
}

/// The rows g(q1) = 0 of a constraint (form g) whose coordinates are q1 (n): the terms of g(q1)
/// added to `scale`, eps times the terms of G(q1) ell added to `floor` (m each).
template <class Scale, class Floor>
void add_position_constraint_scale(const QuadraticFormView& g, const LocalVector& q1, Scale&& scale, Floor&& floor) {
  g.add_value_magnitude(q1, scale);
  g.add_jacobian_product_magnitude(q1, Vector::Constant(q1.size(), kRoundingError * coordinate_size(q1)), floor);
}

/// The rows G(q) u = 0 of a constraint (form g) whose end coordinates are q1 (n each): the terms
/// of G(q) u added to `scale`, the terms of G(q) times eps ell/|h| added to `floor` (m each).
template <class Scale, class Floor>
void add_velocity_constraint_scale(const QuadraticFormView& g, const LocalVector& q, const LocalVector& u,
                                   const LocalVector& q1, double h, Scale&& scale, Floor&& floor) {
  g.add_jacobian_product_magnitude(q, u.cwiseAbs(), scale);
  g.add_jacobian_product_magnitude(q, Vector::Constant(q.size(), rounding_velocity(q1, h)), floor);
}

}  // namespace noether
