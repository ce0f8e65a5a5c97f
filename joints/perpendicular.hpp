#pragma once
/// Perpendicular joint, 2D or 3D: a body-fixed direction of A stays perpendicular to a body-fixed
/// direction of B,
///   a_A . b_B = 0     (1 bilinear)
/// with a_A = N_i d^A_i for N = axis_a/|axis_a| (a fixed world direction for the ground) and b_B
/// likewise on B. 1 equation; removes 1 relative rotational DOF and no translation. Its gradient
/// along the rotations of B is (b_B x a_A), of length 1 on the constraint: full rank wherever the
/// directions are perpendicular. Combined with other constraints it can lose rank: the spin gauge
/// d1 . n = 0 of a rod along d3 fixes the spin about d3 unless d3 is parallel to n (then every
/// spin keeps d1 normal to n). Director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

/// axis_a in body A coordinates, axis_b in body B coordinates (dimension() entries each).
std::shared_ptr<Constraint> make_perpendicular(const std::string& name, const BodyRef& a, const Vector& axis_a,
                                               const BodyRef& b, const Vector& axis_b);

/// Ground version: the world direction axis_ground takes the place of A's axis (the equation becomes
/// linear).
std::shared_ptr<Constraint> make_perpendicular_to_ground(const std::string& name, const Vector& axis_ground,
                                                         const BodyRef& b, const Vector& axis_b);

}  // namespace noether
