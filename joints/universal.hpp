#pragma once
/// Universal (Cardan, Hooke) joint, 3D: the joint points coincide and the two cross-pin axes stay
/// perpendicular,
///   x_B(X_b) - x_A(X_a) = 0     (3 linear)
///   a_A . b_B = 0               (1 bilinear)
/// with a_A = N_i d^A_i for N = axis_a/|axis_a| and b_B likewise on B. 4 equations; 2 relative DOF
/// (rotations about a_A and about b_B). Precondition of the assembled configuration: a_A is
/// perpendicular to b_B, where the Jacobian has full rank 4. The axis equation is singular when
/// a_A is parallel to b_B (gimbal lock, a quarter turn away). Director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

/// X_a, axis_a in body A coordinates; X_b, axis_b in body B coordinates (3 entries each).
std::shared_ptr<Constraint> make_universal(const std::string& name, const BodyRef& a, const Vector& X_a,
                                           const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                           const Vector& axis_b);

/// Ground version: the world point x_ground and world pin axis axis_ground take the place of body A
/// (all 4 equations become linear).
std::shared_ptr<Constraint> make_universal_to_ground(const std::string& name, const Vector& x_ground,
                                                     const Vector& axis_ground, const BodyRef& b,
                                                     const Vector& X_b, const Vector& axis_b);

}  // namespace noether
