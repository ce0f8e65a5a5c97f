#pragma once
/// Reading a body's state from the global (q, v) of a System: points, orientation, momenta.
/// q and v are global (system.num_coordinates()); body is a BodyRef of that system.
#include <Eigen/Core>

#include <noether/bodies/director_inertia.hpp>
#include <noether/bodies/kinematics.hpp>
#include <noether/engine/system.hpp>

namespace noether {

/// The body's own entries of a global vector x (body.kinematics.size()). Throws
/// std::invalid_argument if the block does not have the body's layout (a BodyRef of another system).
Vector body_coordinates(const System& system, const BodyRef& body, ConstVectorRef x);

/// World position x(X) = phi + X_i d_i of the body-fixed point X (body coordinates, dimension()
/// entries; X = 0 for a point mass). Returns dimension() entries.
Vector point_position(const System& system, const BodyRef& body, ConstVectorRef q, const Vector& X);
/// World velocity x'(X) = phi' + X_i d_i' of the body-fixed point X (dimension() entries).
Vector point_velocity(const System& system, const BodyRef& body, ConstVectorRef v, const Vector& X);
/// R = [d_1 ... d_dim] (dimension() x dimension()): body axes in world coordinates; orthonormal
/// up to the constraint tolerance. Throws std::invalid_argument for a point mass.
Matrix rotation(const System& system, const BodyRef& body, ConstVectorRef q);

/// The DirectorInertia acting on the body's block alone; throws std::invalid_argument naming the
/// body if there is none (the body was not made by Mechanism or carries a different inertia).
const DirectorInertia& body_inertia(const System& system, const BodyRef& body);
/// The linear momentum and the angular momentum about `about` of one body at (q, v): the sum of
/// the momentum maps (Inertia::momenta) of the inertia elements acting on its block alone. The
/// whole system's: momenta in engine/measures.hpp. Throws std::invalid_argument naming the body
/// when no inertia acts on its block alone or one of them has no momentum map.
Momenta body_momenta(const System& system, const BodyRef& body, ConstVectorRef q, ConstVectorRef v,
                     const Eigen::Vector3d& about = Eigen::Vector3d::Zero());

}  // namespace noether
