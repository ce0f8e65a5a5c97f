#pragma once
/// Fixed (weld) joint, 3D: no relative motion. With the joint frames (e1, e2, e3) of A and
/// (f1, f2, f3) of B (JointFrame, body coordinates) coinciding in the reference configuration:
///   x_B - x_A = 0                                          (3 linear: the frame origins coincide)
///   e1_A . f2_B = 0,  e1_A . f3_B = 0,  e2_A . f3_B = 0   (3 bilinear: the frames stay aligned)
/// 6 equations; 0 relative DOF. Full rank at aligned frames (and at the other isolated solutions,
/// relative half-turns about a frame axis); singular at a relative quarter turn about any frame
/// axis. Director bodies only.
#include <noether/joints/joint_equations.hpp>

namespace noether {

std::shared_ptr<Constraint> make_fixed(const std::string& name, const BodyRef& a, const JointFrame& frame_a,
                                       const BodyRef& b, const JointFrame& frame_b);

/// Ground version: frame_ground in world coordinates takes the place of A's frame (all 6 equations
/// become linear).
std::shared_ptr<Constraint> make_fixed_to_ground(const std::string& name, const JointFrame& frame_ground,
                                                 const BodyRef& b, const JointFrame& frame_b);

}  // namespace noether
