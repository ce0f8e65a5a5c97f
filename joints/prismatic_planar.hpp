#pragma once
/// Planar prismatic joint: the point X_b of B slides along the line of A through X_a with
/// direction u = axis_a/|axis_a|, and B does not turn relative to A:
///   n_A . (x_B - x_A) = 0     (1 bilinear: X_b on the line, n = planar_normal(u))
///   u_A . m_B = 0             (1 bilinear: the axis w = axis_b/|axis_b| of B stays parallel to u_A,
///                              m = planar_normal(w))
/// 2 equations; 1 relative DOF (the slide). With the relative angle theta from w_B = u_A, the second
/// equation is -sin(theta): full rank at theta = 0 (and pi), singular at theta = +-pi/2. Planar
/// director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

/// X_a, axis_a in body A coordinates; X_b, axis_b in body B coordinates (2 entries each).
std::shared_ptr<Constraint> make_prismatic_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                  const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                                  const Vector& axis_b);

/// Ground version: B slides along the world line through x_ground along axis_ground (both linear).
std::shared_ptr<Constraint> make_prismatic_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                            const Vector& axis_ground, const BodyRef& b,
                                                            const Vector& X_b, const Vector& axis_b);

}  // namespace noether
