#pragma once
/// The rest allowance in the scale of the step rows (TermOutput::scale).
///
/// Newton measures each row of the step equations against the magnitude of the terms that make it
/// up (solvers/newton.hpp). When a body is at rest and no force acts along a coordinate, every
/// term of that coordinate's rows is a velocity, an increment or a multiplier whose exact value is
/// 0: the row then holds only Newton's rounding noise and has nothing to be measured against. So
/// every row an inertia element writes (momentum balance, position update, Legendre map) is also
/// measured against the momentum max|M| ell/h, with max|M| the element's largest mass entry and
/// ell = max_j |q1_j| over its coordinates: the momentum that moves the body by its own size in
/// one step. Met to the relative tolerance r, it holds the positions to about r ell per step, as
/// the rows g(q1) = 0 do, which are measured against the terms of G(q1) times ell besides their
/// own; the velocity rows G u = 0 against the terms of G times (|u| + ell/h).
#include <cmath>

#include <noether/engine/term_layout.hpp>

namespace noether {

/// ell = max_j |q_j| over an element's coordinates q (n), 0 for none.
inline double coordinate_size(const LocalVector& q) { return q.size() > 0 ? q.cwiseAbs().maxCoeff() : 0.0; }

/// The terms of g(q1) (form g) and of G(q1) times ell, added to `scale` (m): the scale of the rows
/// g(q1) = 0 of a constraint whose coordinates are q1 (n).
template <class Out>
void add_position_constraint_scale(const QuadraticFormView& g, const LocalVector& q1, Out&& scale) {
  g.add_value_magnitude(q1, scale);
  g.add_jacobian_product_magnitude(q1, Vector::Constant(q1.size(), coordinate_size(q1)), scale);
}

/// The terms of G(q) u with |u| + ell/|h| in place of u, added to `scale` (m): the scale of the
/// rows G(q) u = 0 of a constraint whose end coordinates are q1 (n each).
template <class Out>
void add_velocity_constraint_scale(const QuadraticFormView& g, const LocalVector& q, const LocalVector& u,
                                   const LocalVector& q1, double h, Out&& scale) {
  g.add_jacobian_product_magnitude(q, u.cwiseAbs().array() + coordinate_size(q1) / std::abs(h), scale);
}

}  // namespace noether
