#pragma once
/// The rigid rod between planar point masses in Cartesian coordinates, as a generic
/// FunctionConstraint (the double pendulum of [Kosmas2020]; also used by the projection tests).
#include <noether/joints/function_constraint.hpp>

namespace noether {

/// g = 1/2 (|b - a|^2 - l^2) on two planar points stacked as (a, b) (4 coordinates), or, when
/// `grounded`, g = 1/2 (|a|^2 - l^2) on one point (2 coordinates). Quadratic.
ConstraintFunction planar_rod_constraint(double length, bool grounded);

}  // namespace noether
