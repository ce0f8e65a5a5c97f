#pragma once
/// Distance joint (massless rigid rod), 2D or 3D: two body points keep the distance L > 0,
///   g = 1/2 (|x_A(X_a) - x_B(X_b)|^2 - L^2) = 0     (1 quadratic equation).
/// Removes 1 DOF (5 relative DOF in 3D). G = (x_A - x_B)^T (P_A, -P_B) has full rank wherever the
/// points are apart; the form is singular only at x_A = x_B, which L > 0 keeps away. Works with
/// director bodies and point masses (attached at X = 0) of one dimension.
#include <noether/joints/joint_equations.hpp>

namespace noether {

std::shared_ptr<Constraint> make_distance(const std::string& name, const BodyRef& a, const Vector& X_a,
                                          const BodyRef& b, const Vector& X_b, double length);

/// Ground version: g = 1/2 (|x_ground - x_B(X_b)|^2 - L^2), x_ground in world coordinates.
std::shared_ptr<Constraint> make_distance_to_ground(const std::string& name, const Vector& x_ground,
                                                    const BodyRef& b, const Vector& X_b, double length);

}  // namespace noether
