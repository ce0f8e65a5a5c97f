#pragma once
/// Cylindrical joint, 3D: the axes stay parallel and the point X_b of B stays on the axis line of A
/// through X_a,
///   a_A . m1_B = 0,   a_A . m2_B = 0                        (2 bilinear: parallel axes)
///   n1_A . (x_B - x_A) = 0,   n2_A . (x_B - x_A) = 0        (2 bilinear: X_b on the line)
/// with a = axis_a/|axis_a|, (a, n1, n2) = axis_normal_pair(a) on A, (axis_b/|axis_b|, m1, m2) =
/// axis_normal_pair() on B, x_A = x_A(X_a), x_B = x_B(X_b). 4 equations; 2 relative DOF (slide along
/// and turn about the axis). The line equations have full rank everywhere; the axis equations are
/// full rank at a_A = +-a_B and singular only for perpendicular axes. Director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

/// X_a, axis_a in body A coordinates; X_b, axis_b in body B coordinates (3 entries each).
std::shared_ptr<Constraint> make_cylindrical(const std::string& name, const BodyRef& a, const Vector& X_a,
                                             const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                             const Vector& axis_b);

/// Ground version: B slides along and turns about the world line through x_ground along axis_ground
/// (all 4 equations become linear).
std::shared_ptr<Constraint> make_cylindrical_to_ground(const std::string& name, const Vector& x_ground,
                                                       const Vector& axis_ground, const BodyRef& b,
                                                       const Vector& X_b, const Vector& axis_b);

}  // namespace noether
