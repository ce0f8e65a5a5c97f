#pragma once
/// Prescribed trajectory of a body point: the point X_b of body B follows r(t) in the world,
///   x_B(X_b) - r(t) = 0     (dim rows, linear in q at every t; joints/driven_joint.hpp),
/// one time profile per world component. Its reaction (engine/reaction.hpp) is the force that
/// drives the point along r, on B at X_b. Planar or 3D bodies, director bodies or point masses
/// (attached at X = 0).
#include <vector>

#include <noether/joints/joint_equations.hpp>
#include <noether/joints/time_profile.hpp>

namespace noether {

/// trajectory: one profile per component of the body's dimension.
std::shared_ptr<Constraint> make_prescribed_point(const std::string& name, const BodyRef& b, const Vector& X_b,
                                                  std::vector<TimeProfile> trajectory);

}  // namespace noether
