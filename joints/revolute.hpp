#pragma once
/// Revolute (hinge) joint, 3D: the joint points coincide and the hinge axes stay parallel,
///   x_B(X_b) - x_A(X_a) = 0               (3 linear)
///   a_A . n1_B = 0,   a_A . n2_B = 0      (2 bilinear)
/// with a_A = N_i d^A_i for N = axis_a/|axis_a|, and (axis_b/|axis_b|, n1, n2) the orthonormal
/// triad of B from axis_normal_pair(). 5 equations; 1 relative DOF (rotation about the axis).
/// Assembled configurations have a_A = +-a_B, where the Jacobian has full rank 5; the axis
/// equations become singular only when a_A is perpendicular to a_B. Director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

/// X_a, axis_a in body A coordinates; X_b, axis_b in body B coordinates (3 entries each).
std::shared_ptr<Constraint> make_revolute(const std::string& name, const BodyRef& a, const Vector& X_a,
                                          const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                          const Vector& axis_b);

/// Ground version: the world point x_ground and world axis axis_ground take the place of body A
/// (all 5 equations become linear).
std::shared_ptr<Constraint> make_revolute_to_ground(const std::string& name, const Vector& x_ground,
                                                    const Vector& axis_ground, const BodyRef& b,
                                                    const Vector& X_b, const Vector& axis_b);

}  // namespace noether
