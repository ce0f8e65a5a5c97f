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
/// L = int rho x' dV of one body (in R^3; z = 0 for planar bodies).
Eigen::Vector3d linear_momentum(const System& system, const BodyRef& body, ConstVectorRef v);
/// J = sum_ab Mbar_ab x_a x x_b' about the world origin, of one body (planar bodies: only J_z).
Eigen::Vector3d angular_momentum(const System& system, const BodyRef& body, ConstVectorRef q, ConstVectorRef v);

/// Sums over every inertia element of the system; throws std::invalid_argument naming the first
/// inertia that is not a DirectorInertia (its momentum is not defined by a body layout).
Eigen::Vector3d total_linear_momentum(const System& system, ConstVectorRef v);
Eigen::Vector3d total_angular_momentum(const System& system, ConstVectorRef q, ConstVectorRef v);

}  // namespace noether
