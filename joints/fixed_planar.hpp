#pragma once
/// Planar fixed (weld) joint: the joint points coincide and the axes stay parallel,
///   x_B(X_b) - x_A(X_a) = 0     (2 linear)
///   u_A . m_B = 0               (1 bilinear: u = axis_a/|axis_a|, m = planar_normal(axis_b/|axis_b|))
/// 3 equations; 0 relative DOF. With the relative angle theta from w_B = u_A the last equation is
/// -sin(theta): full rank at theta = 0 (and pi), singular at theta = +-pi/2. Planar director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

/// X_a, axis_a in body A coordinates; X_b, axis_b in body B coordinates (2 entries each).
std::shared_ptr<Constraint> make_fixed_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                              const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                              const Vector& axis_b);

/// Ground version: the world point x_ground and world axis axis_ground take the place of A (all linear).
std::shared_ptr<Constraint> make_fixed_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                        const Vector& axis_ground, const BodyRef& b,
                                                        const Vector& X_b, const Vector& axis_b);

}  // namespace noether
