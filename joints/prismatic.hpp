#pragma once
/// Prismatic (slider) joint, 3D: body B translates along the axis e1 of a frame of A without any
/// relative rotation. With the joint frames (e1, e2, e3) of A and (f1, f2, f3) of B (JointFrame,
/// body coordinates) aligned in the reference configuration:
///   e2_A . (x_B - x_A) = 0,   e3_A . (x_B - x_A) = 0     (2 bilinear: the origin of B on the axis line)
///   e1_A . f2_B = 0,   e1_A . f3_B = 0                    (2 bilinear: parallel axes)
///   e2_A . f3_B = 0                                       (1 bilinear: no turn about the axis)
/// x_A, x_B the frame origins. 5 equations; 1 relative DOF (the slide). Full rank at aligned frames
/// (and at the other isolated solutions, relative half-turns about a frame axis); the orientation
/// equations become singular at a relative quarter turn about e1, e2 or e3. Director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

std::shared_ptr<Constraint> make_prismatic(const std::string& name, const BodyRef& a, const JointFrame& frame_a,
                                           const BodyRef& b, const JointFrame& frame_b);

/// Ground version: frame_ground in world coordinates takes the place of A's frame (all 5 equations
/// become linear).
std::shared_ptr<Constraint> make_prismatic_to_ground(const std::string& name, const JointFrame& frame_ground,
                                                     const BodyRef& b, const JointFrame& frame_b);

}  // namespace noether
