#pragma once
/// Driven prismatic joint: a prismatic joint whose slide is prescribed, the displacement of B's
/// point along A's axis u = f(t). It replaces the plain prismatic joint (it holds the prismatic's
/// rows and one row more), so its reaction is the joint's force and moment together with the force
/// the drive needs along the axis (the frame's first component, engine/reaction.hpp). The drive row
///   u_A . (x_B - x_A) - f(t) = 0
/// is bilinear in q (linear against the ground) at every t (joints/driven_joint.hpp).
#include <noether/joints/joint_equations.hpp>
#include <noether/joints/time_profile.hpp>

namespace noether {

/// Planar: the rows of make_prismatic_planar, and the slide of X_b from X_a along axis_a is f(t).
std::shared_ptr<Constraint> make_driven_prismatic_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                         const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                                         const Vector& axis_b, TimeProfile displacement);
/// Planar against the ground: the world line through x_ground along axis_ground takes A's place.
std::shared_ptr<Constraint> make_driven_prismatic_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                                   const Vector& axis_ground, const BodyRef& b,
                                                                   const Vector& X_b, const Vector& axis_b,
                                                                   TimeProfile displacement);

/// 3D: the rows of make_prismatic, and the slide of B's frame origin from A's along e1_A is f(t).
std::shared_ptr<Constraint> make_driven_prismatic(const std::string& name, const BodyRef& a, const JointFrame& frame_a,
                                                  const BodyRef& b, const JointFrame& frame_b,
                                                  TimeProfile displacement);
/// 3D against the ground: frame_ground (world coordinates) takes A's place.
std::shared_ptr<Constraint> make_driven_prismatic_to_ground(const std::string& name, const JointFrame& frame_ground,
                                                            const BodyRef& b, const JointFrame& frame_b,
                                                            TimeProfile displacement);

}  // namespace noether
