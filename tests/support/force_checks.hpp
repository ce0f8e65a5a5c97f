#pragma once
/// Shared checks for the force-element tests: derivatives against central differences, the
/// discrete-gradient identity and the momentum conditions of [DiscreteDerivativesEM, eq. (13)-(14)]:
/// sum_i Dbar_i V = 0 (linear momentum) and sum_i x_i,mid x Dbar_i V = 0 (angular momentum).
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <vector>

#include <noether/bodies/kinematics.hpp>
#include <noether/engine/dissipation.hpp>
#include <noether/engine/potential.hpp>
#include "support/finite_differences.hpp"

namespace noether::testing {

/// max|a - b| / max(1, max|b|).
inline double relative_difference(const Matrix& a, const Matrix& b) {
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

inline Vector gradient_of(const Potential& V, const Vector& q) {
  Vector g = Vector::Zero(q.size());
  V.add_gradient(q, 1.0, g);
  return g;
}

inline Matrix hessian_of(const Potential& V, const Vector& q) {
  Matrix K = Matrix::Zero(q.size(), q.size());
  V.add_hessian(q, 1.0, K);
  return K;
}

inline Vector discrete_gradient_of(const Potential& V, const Vector& q_a, const Vector& q_b) {
  Vector g = Vector::Zero(q_a.size());
  V.add_discrete_gradient(q_a, q_b, 1.0, g);
  return g;
}

inline Matrix discrete_gradient_jacobian_of(const Potential& V, const Vector& q_a, const Vector& q_b) {
  Matrix K = Matrix::Zero(q_a.size(), q_a.size());
  V.add_discrete_gradient_jacobian(q_a, q_b, 1.0, K);
  return K;
}

/// DV and D^2 V against central differences of V and DV (step 1e-6: truncation ~1e-12, cancellation ~1e-10).
inline void check_potential_derivatives(const Potential& V, const Vector& q) {
  const Vector fd_gradient = central_difference_gradient([&](const Vector& x) { return V.energy(x); }, q);
  const Matrix fd_hessian = central_difference_jacobian([&](const Vector& x) { return gradient_of(V, x); }, q);
  const Matrix K = hessian_of(V, q);
  CHECK(relative_difference(gradient_of(V, q), fd_gradient) < 1e-7);
  CHECK(relative_difference(K, fd_hessian) < 1e-7);
  CHECK(relative_difference(K, K.transpose()) < 1e-14);
}

/// Dbar V(q_a, q_b).(q_b - q_a) = V(q_b) - V(q_a) to round-off (relative to the energies).
inline void check_discrete_gradient_identity(const Potential& V, const Vector& q_a, const Vector& q_b) {
  const double V_a = V.energy(q_a), V_b = V.energy(q_b);
  const double defect = discrete_gradient_of(V, q_a, q_b).dot(q_b - q_a) - (V_b - V_a);
  MESSAGE("discrete gradient identity defect ", defect, " (V_a ", V_a, ", V_b ", V_b, ")");
  CHECK(std::abs(defect) <= 1e-12 * std::max({1.0, std::abs(V_a), std::abs(V_b)}));
}

/// The identity, the Jacobian in q_b against central differences, and Dbar V(q, q) = DV(q).
/// q_a and q_b well apart: differencing a difference quotient of a short step amplifies round-off.
inline void check_discrete_gradient(const Potential& V, const Vector& q_a, const Vector& q_b) {
  check_discrete_gradient_identity(V, q_a, q_b);
  const Matrix fd = central_difference_jacobian([&](const Vector& x) { return discrete_gradient_of(V, q_a, x); }, q_b);
  CHECK(relative_difference(discrete_gradient_jacobian_of(V, q_a, q_b), fd) < 1e-7);
  CHECK(relative_difference(discrete_gradient_of(V, q_a, q_a), gradient_of(V, q_a)) < 1e-14);
}

/// Net force and net moment about the origin of a generalized force f on the concatenated
/// coordinates of bodies of the given kinds (all of one dimension): the momentum conditions of
/// [DiscreteDerivativesEM, eq. (13)-(14)], in director coordinates. Translations move phi (or the
/// point), rotations turn every dimension-vector of the layout, so
///   net force = sum over bodies of f_phi,   net moment = sum over all vectors q_k of q_k x f_k.
struct NetLoad {
  Vector force;
  Vector moment;  ///< 3 entries in 3D, 1 planar
};

inline NetLoad net_load(const std::vector<BodyKind>& kinds, const Vector& q, const Vector& f) {
  const Index dim = BodyKinematics(kinds.front()).dimension();
  NetLoad out{Vector::Zero(dim), Vector::Zero(dim == 3 ? 3 : 1)};
  Index offset = 0;
  for (BodyKind kind : kinds) {
    const Index size = BodyKinematics(kind).size();
    out.force += f.segment(offset, dim);
    for (Index k = offset; k < offset + size; k += dim) {
      if (dim == 3) {
        out.moment += Eigen::Vector3d(q.segment<3>(k)).cross(Eigen::Vector3d(f.segment<3>(k)));
      } else {
        out.moment(0) += q(k) * f(k + 1) - q(k + 1) * f(k);
      }
    }
    offset += size;
  }
  return out;
}

}  // namespace noether::testing

namespace noether::testing {

inline Matrix damping_matrix_of(const Dissipation& D, const Vector& q) {
  Matrix C = Matrix::Zero(q.size(), q.size());
  D.add_damping_matrix(q, 1.0, C);
  return C;
}

inline Vector damping_force_of(const Dissipation& D, const Vector& q, const Vector& v) {
  Vector f = Vector::Zero(q.size());
  D.add_damping_force(q, v, 1.0, f);
  return f;
}

/// C(q) symmetric positive semi-definite, v.C(q)v >= 0, and d(C(q) v)/dq against central differences.
inline void check_damping(const Dissipation& D, const Vector& q, const Vector& v) {
  const Matrix C = damping_matrix_of(D, q);
  CHECK(relative_difference(C, C.transpose()) < 1e-14);
  const double smallest = Eigen::SelfAdjointEigenSolver<Matrix>(C).eigenvalues().minCoeff();
  CHECK(smallest >= -1e-13 * std::max(1.0, C.norm()));
  CHECK(v.dot(C * v) >= 0.0);
  Matrix K = Matrix::Zero(q.size(), q.size());
  D.add_damping_force_q_jacobian(q, v, 1.0, K);
  const Matrix fd = central_difference_jacobian([&](const Vector& x) { return damping_force_of(D, x, v); }, q);
  CHECK(relative_difference(K, fd) < 1e-7);
}

}  // namespace noether::testing
