#pragma once
/// Reproducible random rigid-body data for the body tests.
#include <Eigen/Geometry>

#include <noether/bodies/body_properties.hpp>
#include "support/finite_differences.hpp"

namespace noether::testing {

/// A rotation from a random unit quaternion.
inline Eigen::Matrix3d random_rotation(unsigned seed) {
  const Vector r = random_vector(4, seed);
  return Eigen::Quaterniond(r(0), r(1), r(2), r(3)).normalized().toRotationMatrix();
}

/// m in [1, 3], J_c = Q diag(J) Q^T with J_i = E_j + E_k from E_i in [0.1, 1.1] (so the triangle
/// inequality holds), Q random when principal is false, identity otherwise; c random or zero.
inline RigidBodyProperties random_rigid_body(unsigned seed, bool principal, bool offset) {
  const Vector r = random_vector(7, seed);
  const Eigen::Vector3d E = Eigen::Vector3d(r(1), r(2), r(3)).array() * 0.5 + 0.6;
  const Eigen::Vector3d J(E(1) + E(2), E(2) + E(0), E(0) + E(1));
  const Eigen::Matrix3d Q = principal ? Eigen::Matrix3d::Identity() : random_rotation(seed + 1000);
  RigidBodyProperties body;
  body.mass = 2.0 + r(0);
  body.center_of_mass = offset ? Eigen::Vector3d(r(4), r(5), r(6)) : Eigen::Vector3d::Zero();
  body.inertia = Q * J.asDiagonal() * Q.transpose();
  return body;
}

}  // namespace noether::testing
