#pragma once
/// Probes on body-fixed points, for models built with Mechanism.
#include <string>

#include <noether/apps/model/model.hpp>
#include <noether/bodies/kinematics.hpp>

namespace noether {

/// The probe `name` following the world position x(X) = P(X) q_body of the body-fixed point X
/// (body coordinates, dimension() entries) of `body`, a body of `system`. It keeps the block offset
/// and P(X), not the system, so it stays valid when the system moves into a Model.
Probe body_point_probe(std::string name, const System& system, const BodyRef& body, const Vector& X);

}  // namespace noether
