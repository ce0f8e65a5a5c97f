#pragma once
/// A point mass in spherical coordinates (r, theta, phi): the mass matrix of a configuration-dependent
/// inertia (ConfigurationInertia), singular at the poles theta = k pi and at r = 0.
#include <Eigen/Core>

#include <noether/bodies/generic_inertia.hpp>

namespace noether {

/// x(q) = r (sin theta cos phi, sin theta sin phi, cos theta) for q = (r, theta, phi)   (q: 3).
Eigen::Vector3d spherical_to_cartesian(ConstVectorRef q);

/// T = 1/2 m |x'|^2 = 1/2 m (r'^2 + r^2 theta'^2 + r^2 sin^2 theta phi'^2):
///   M(q) = m diag(1, r^2, r^2 sin^2 theta)   (3 x 3),
/// with dM/dq_i and d^2 M/dq_i dq_j for ConfigurationInertia ([KinonBetsch2023, Sec. 6.2]).
/// Throws std::invalid_argument unless 0 < mass < infinity and mass is a normal number.
MassFunction spherical_point_mass(double mass);

}  // namespace noether
