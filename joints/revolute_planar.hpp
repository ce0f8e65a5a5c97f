#pragma once
/// Planar revolute joint: a point of body A and a point of body B coincide,
///   g = x_B(X_b) - x_A(X_a) = 0     (2 linear equations, x = phi + X_1 d1 + X_2 d2),
/// leaving the relative rotation free. Full rank in every configuration. Works with planar
/// director bodies and 2D point masses (attached at X = 0).
#include <noether/joints/joint_equations.hpp>

namespace noether {

std::shared_ptr<Constraint> make_revolute_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                 const BodyRef& b, const Vector& X_b);

/// Ground version: g = x_B(X_b) - x_ground = 0, x_ground in world coordinates.
std::shared_ptr<Constraint> make_revolute_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                           const BodyRef& b, const Vector& X_b);

}  // namespace noether
