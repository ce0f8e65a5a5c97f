#pragma once
/// Spherical (ball) joint, 3D: a point of body A and a point of body B coincide,
///   g = x_B(X_b) - x_A(X_a) = 0     (3 linear equations, x = phi + X_i d_i),
/// leaving the 3 relative rotations free. Full rank in every configuration. Works with director
/// bodies and with 3D point masses (attached at X = 0).
#include <noether/joints/joint_equations.hpp>

namespace noether {

std::shared_ptr<Constraint> make_spherical(const std::string& name, const BodyRef& a, const Vector& X_a,
                                           const BodyRef& b, const Vector& X_b);

/// Ground version: g = x_B(X_b) - x_ground = 0, x_ground in world coordinates (linear, 3 equations).
std::shared_ptr<Constraint> make_spherical_to_ground(const std::string& name, const Vector& x_ground,
                                                     const BodyRef& b, const Vector& X_b);

}  // namespace noether
