#pragma once
/// Driven revolute joint: a revolute joint whose relative angle is prescribed, theta = f(t). It
/// replaces the plain revolute joint (it holds the revolute's rows and one row more), so its
/// reaction is the hinge's force together with the motor torque the drive needs (its moment about
/// the axis, engine/reaction.hpp). With the bilinear invariants c = u_a . u_b = cos(theta),
/// s = w_a . u_b = sin(theta) (joints/hinge_angle.hpp), the drive row is
///   s cos f(t) - c sin f(t) = sin(theta - f(t)) = 0,
/// bilinear in q at every t (joints/driven_joint.hpp), with D_theta of it 1 on the motion: the
/// multiplier is the torque about the axis. theta - f = pi also solves it; a motion started at
/// theta = f(t0) stays on the branch theta = f. f: any time profile (joints/time_profile.hpp).
#include <noether/joints/joint_equations.hpp>
#include <noether/joints/time_profile.hpp>

namespace noether {

/// Planar: the joint points coincide (make_revolute_planar) and the angle from d1 of A to d1 of B
/// is f(t).
std::shared_ptr<Constraint> make_driven_revolute_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                        const BodyRef& b, const Vector& X_b, TimeProfile angle);
/// Planar against the ground: the angle from the world x axis to d1 of B is f(t).
std::shared_ptr<Constraint> make_driven_revolute_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                                  const BodyRef& b, const Vector& X_b,
                                                                  TimeProfile angle);

/// 3D: the rows of make_revolute and the drive, the angle about a = axis_a/|axis_a| from m1 of A to
/// n1 of B, with (a, m1, m2) and (b, n1, n2) the triads of axis_normal_pair (u_a = m1, w_a = m2,
/// u_b = n1). Director bodies only.
std::shared_ptr<Constraint> make_driven_revolute(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                 const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                                 const Vector& axis_b, TimeProfile angle);
/// 3D against the ground: the world point and axis take A's place.
std::shared_ptr<Constraint> make_driven_revolute_to_ground(const std::string& name, const Vector& x_ground,
                                                           const Vector& axis_ground, const BodyRef& b,
                                                           const Vector& X_b, const Vector& axis_b, TimeProfile angle);

}  // namespace noether
