#pragma once
/// Shared helpers of the joint tests: bodies, rigid poses turned into director coordinates, the
/// bodies' orthonormality constraints, and the derivative and invariant checks every joint passes.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <doctest/doctest.h>

#include <noether/bodies/kinematics.hpp>
#include <noether/engine/constraint.hpp>
#include <noether/joints/quadratic_joint.hpp>
#include "support/finite_differences.hpp"

namespace noether::joint_testing {

inline BodyRef body(Index block, BodyKind kind, std::string name) {
  return {BlockId{block}, BodyKinematics(kind), std::move(name)};
}

inline Vector vec(std::initializer_list<double> entries) {
  Vector v(static_cast<Index>(entries.size()));
  Index i = 0;
  for (double e : entries) v(i++) = e;
  return v;
}

inline Vector stack(const Vector& top, const Vector& bottom) {
  Vector v(top.size() + bottom.size());
  v << top, bottom;
  return v;
}

inline Vector cross(const Vector& a, const Vector& b) { return Eigen::Vector3d(a).cross(Eigen::Vector3d(b)); }

/// Rotation by `angle` about `axis` (3D, axis normalized here) or by `angle` in the plane (2D).
inline Matrix rotation(const Vector& axis, double angle) {
  return Eigen::AngleAxisd(angle, Eigen::Vector3d(axis).normalized()).toRotationMatrix();
}
inline Matrix rotation2d(double angle) { return Eigen::Rotation2Dd(angle).toRotationMatrix(); }

/// A reproducible random rotation (3D) from a seed.
inline Matrix random_rotation(unsigned seed) {
  const Vector axis = testing::random_vector(3, seed) + vec({0.1, 0.0, 0.0});
  return rotation(axis, 3.0 * testing::random_vector(1, seed + 1)(0));
}

/// A right-handed orthonormal frame (columns) whose first column is axis/|axis|, completed by
/// Gram-Schmidt from `hint` (which must not be parallel to axis).
inline Matrix frame_from(const Vector& axis, const Vector& hint) {
  const Eigen::Vector3d e1 = Eigen::Vector3d(axis).normalized();
  const Eigen::Vector3d e2 = (Eigen::Vector3d(hint) - Eigen::Vector3d(hint).dot(e1) * e1).normalized();
  Matrix F(3, 3);
  F << e1, e2, e1.cross(e2);
  return F;
}

/// A rigid placement of a director body or a point mass: reference point phi and orientation R
/// (its columns are the directors d_i). For a point mass R is ignored.
struct Pose {
  Vector phi;
  Matrix R;

  /// The body's coordinates: (phi, d1, d2[, d3]) for a director body, phi for a point mass.
  Vector q(const BodyKinematics& kinematics) const {
    if (!kinematics.has_directors()) return phi;
    Vector q(kinematics.size());
    q.head(phi.size()) = phi;
    for (Index i = 0; i < R.cols(); ++i) q.segment(phi.size() * (i + 1), phi.size()) = R.col(i);
    return q;
  }
  Vector point(const Vector& X) const { return phi + R * X; }
  Vector direction(const Vector& N) const { return R * N; }
  /// The pose after the rigid rotation Q about the world point `center`.
  Pose rotated(const Vector& center, const Matrix& Q) const { return {center + Q * (phi - center), Q * R}; }
  Pose translated(const Vector& shift) const { return {phi + shift, R}; }
};

/// The world frame, standing in for the ground side of a joint.
inline Pose ground_pose(Index dim) { return {Vector::Zero(dim), Matrix::Identity(dim, dim)}; }

/// The pose of B that brings the body point X_b to the world point x and gives B orientation R.
inline Pose pose_placing(const Vector& X_b, const Vector& x, const Matrix& R) { return {x - R * X_b, R}; }

/// Jacobian of the internal orthonormality constraints 1/2 (d_i.d_i - 1), d_i.d_j (i < j) of one
/// body, in the columns of its block within a joint's local coordinates (rows: 6 in 3D, 3 planar,
/// none for a point mass).
inline Matrix orthonormality_jacobian(const BodyKinematics& kinematics, const Vector& q_body, Index offset, Index n) {
  if (!kinematics.has_directors()) return Matrix(0, n);
  const Index dim = kinematics.dimension();
  const Index rows = dim * (dim + 1) / 2;
  Matrix J = Matrix::Zero(rows, n);
  Index r = 0;
  for (Index i = 0; i < dim; ++i)
    for (Index j = i; j < dim; ++j, ++r) {
      const Vector d_i = q_body.segment(dim * (i + 1), dim), d_j = q_body.segment(dim * (j + 1), dim);
      J.block(r, offset + dim * (i + 1), 1, dim) += d_j.transpose();
      if (i != j) J.block(r, offset + dim * (j + 1), 1, dim) += d_i.transpose();
    }
  return J;
}

inline Vector value_of(const Constraint& joint, const Vector& q) {
  Vector g(joint.num_equations());
  joint.calc_value(q, g);
  return g;
}

inline Matrix jacobian_of(const Constraint& joint, const Vector& q) {
  Matrix G(joint.num_equations(), joint.local_size());
  joint.calc_jacobian(q, G);
  return G;
}

/// Singular values of A, largest first.
inline Vector singular_values(const Matrix& A) { return Eigen::JacobiSVD<Matrix>(A).singularValues(); }

/// Number of singular values above 1e-9 of the largest.
inline Index numerical_rank(const Matrix& A) {
  const Vector s = singular_values(A);
  Index rank = 0;
  for (Index i = 0; i < s.size(); ++i) rank += s(i) > 1e-9 * s(0) ? 1 : 0;
  return rank;
}


inline double largest_abs(const Matrix& A) { return A.size() == 0 ? 0.0 : A.cwiseAbs().maxCoeff(); }

/// Derivative checks every joint passes, at random (non-orthonormal) coordinates:
///  - G against central differences of g, and sum_k lambda_k D^2 g_k against central differences
///    of G^T lambda (g is quadratic, so central differences are exact up to round-off ~1e-10);
///  - the Hessian contraction is symmetric and scales with s;
///  - Gbar(q_a, q_b)(q_b - q_a) = g(q_b) - g(q_a) to round-off, and Gbar(q, q) == G(q) bit for bit;
///  - d/dq_b (Gbar^T lambda) against central differences;
///  - the declared nonlinearity.
/// Returns the relative errors found.
struct DerivativeErrors {
  double jacobian = 0, hessian = 0, identity = 0, identity_jacobian = 0;
};
inline DerivativeErrors check_derivatives(const Constraint& joint, Nonlinearity expected, unsigned seed) {
  DerivativeErrors errors;
  const Index n = joint.local_size(), m = joint.num_equations();
  CHECK(joint.nonlinearity() == expected);
  const Vector q = testing::random_vector(n, seed, 2.0);
  const Vector lambda = testing::random_vector(m, seed + 1);
  const Matrix G = jacobian_of(joint, q);
  const Matrix G_fd = testing::central_difference_jacobian([&](const Vector& y) { return value_of(joint, y); }, q);
  errors.jacobian = largest_abs(G - G_fd) / (1.0 + largest_abs(G));
  CHECK(errors.jacobian <= 1e-8);

  Matrix K = Matrix::Zero(n, n);
  joint.add_hessian_contraction(q, lambda, 1.0, K);
  const Matrix K_fd = testing::central_difference_jacobian(
      [&](const Vector& y) { return Vector(jacobian_of(joint, y).transpose() * lambda); }, q);
  errors.hessian = largest_abs(K - K_fd) / (1.0 + largest_abs(K));
  CHECK(errors.hessian <= 1e-8);
  CHECK(largest_abs(K - K.transpose()) == 0.0);
  Matrix K_scaled = Matrix::Zero(n, n);
  joint.add_hessian_contraction(q, lambda, -0.5, K_scaled);
  CHECK(largest_abs(K_scaled + 0.5 * K) <= 1e-15 * (1.0 + largest_abs(K)));

  const Vector q_a = testing::random_vector(n, seed + 2, 2.0), q_b = testing::random_vector(n, seed + 3, 2.0);
  Matrix G_bar(m, n);
  joint.calc_discrete_gradient(q_a, q_b, G_bar);
  const Vector g_a = value_of(joint, q_a), g_b = value_of(joint, q_b);
  errors.identity = largest_abs(G_bar * (q_b - q_a) - (g_b - g_a)) /
                    (1.0 + largest_abs(g_a) + largest_abs(g_b) + largest_abs(G_bar) * (q_b - q_a).lpNorm<1>());
  CHECK(errors.identity <= 1e-15);
  joint.calc_discrete_gradient(q, q, G_bar);
  CHECK(largest_abs(G_bar - G) == 0.0);

  Matrix J = Matrix::Zero(n, n);
  joint.add_discrete_gradient_contraction_jacobian(q_a, q_b, lambda, 1.0, J);
  const Matrix J_fd = testing::central_difference_jacobian(
      [&](const Vector& y) {
        Matrix Gb(m, n);
        joint.calc_discrete_gradient(q_a, y, Gb);
        return Vector(Gb.transpose() * lambda);
      },
      q_b);
  errors.identity_jacobian = largest_abs(J - J_fd) / (1.0 + largest_abs(J));
  CHECK(errors.identity_jacobian <= 1e-8);
  return errors;
}

/// A joint with the poses of its sides in a configuration that satisfies it. For a joint to the
/// ground, `a` is empty and pose_a is the world frame (identity).
struct Assembled {
  const Constraint& joint;
  std::optional<BodyKinematics> a;
  BodyKinematics b;
  Pose pose_a, pose_b;

  Vector q(const Pose& at_a, const Pose& at_b) const {
    return a ? stack(at_a.q(*a), at_b.q(b)) : at_b.q(b);
  }
  Vector q() const { return q(pose_a, pose_b); }
};

/// A one-parameter rigid motion of body B (world frame) with parameter t.
struct Motion {
  std::string label;
  std::function<Pose(const Pose&, double)> move;
};

inline Motion rotation_about(std::string label, const Vector& center, const Vector& axis) {
  return {std::move(label), [=](const Pose& p, double t) { return p.rotated(center, rotation(axis, t)); }};
}
inline Motion planar_rotation_about(std::string label, const Vector& center) {
  return {std::move(label), [=](const Pose& p, double t) { return p.rotated(center, rotation2d(t)); }};
}
inline Motion translation_along(std::string label, const Vector& direction) {
  return {std::move(label), [=](const Pose& p, double t) { return p.translated(t * direction); }};
}

/// Degrees of freedom of a free body and number of its internal orthonormality constraints.
inline Index free_dof(const BodyKinematics& k) { return k.dimension() == 3 ? (k.has_directors() ? 6 : 3) : (k.has_directors() ? 3 : 2); }
inline Index internal_rows(const BodyKinematics& k) { return k.has_directors() ? k.dimension() * (k.dimension() + 1) / 2 : 0; }

/// The joint Jacobian at q stacked with the orthonormality Jacobians of A (if a body) and B:
/// m + internal rows, n columns.
inline Matrix stacked_jacobian(const Assembled& s, const Vector& q) {
  const Index n = static_cast<Index>(q.size()), offset_b = s.a ? s.a->size() : 0;
  const Matrix O_a = s.a ? orthonormality_jacobian(*s.a, q.head(offset_b), 0, n) : Matrix(0, n);
  const Matrix O_b = orthonormality_jacobian(s.b, q.tail(s.b.size()), offset_b, n);
  Matrix stacked(s.joint.num_equations() + O_a.rows() + O_b.rows(), n);
  stacked << jacobian_of(s.joint, q), O_a, O_b;
  return stacked;
}

/// The invariants of an assembled joint:
///  - g = 0 at the assembled configuration, along every allowed motion of B (several amplitudes)
///    and under a rigid motion of both bodies; |g| >= 1e-3 after each forbidden motion (t = 0.25);
///  - the joint Jacobian stacked with both bodies' orthonormality Jacobians has full row rank, and
///    the coordinates minus that rank minus the free DOF of A leave `relative_dof`.
inline void check_invariants(const Assembled& s, const std::vector<Motion>& allowed,
                             const std::vector<Motion>& forbidden, Index relative_dof) {
  const Vector q = s.q();
  const double scale = 1.0 + q.lpNorm<Eigen::Infinity>();
  CHECK(largest_abs(value_of(s.joint, q)) <= 1e-14 * scale * scale);
  for (const Motion& motion : allowed)
    for (double t : {0.4, -1.3, 2.9}) {
      INFO("allowed motion '", motion.label, "' t = ", t);
      CHECK(largest_abs(value_of(s.joint, s.q(s.pose_a, motion.move(s.pose_b, t)))) <= 1e-13 * scale * scale);
    }
  for (const Motion& motion : forbidden) {
    INFO("forbidden motion '", motion.label, "'");
    CHECK(largest_abs(value_of(s.joint, s.q(s.pose_a, motion.move(s.pose_b, 0.25)))) >= 1e-3);
  }
  if (s.a) {
    const Index dim = s.b.dimension();
    const Matrix Q = dim == 3 ? random_rotation(77) : rotation2d(2.2);
    const Vector c = testing::random_vector(dim, 78), shift = testing::random_vector(dim, 79);
    const Vector moved = s.q(s.pose_a.rotated(c, Q).translated(shift), s.pose_b.rotated(c, Q).translated(shift));
    CHECK(largest_abs(value_of(s.joint, moved)) <= 1e-13 * scale * scale);
  }
  const Matrix stacked = stacked_jacobian(s, q);
  const Index n = static_cast<Index>(q.size()), m = s.joint.num_equations();
  const Index rank = numerical_rank(stacked);
  const Vector sigma = singular_values(stacked);
  const Index dof_a = s.a ? free_dof(*s.a) : 0;
  MESSAGE(s.joint.name(), ": ", m, " equations, rank ", rank, " of ", stacked.rows(), " rows on ", n,
          " coordinates, relative DOF ", n - rank - dof_a, ", smallest singular value ", sigma(sigma.size() - 1));
  CHECK(rank == stacked.rows());
  CHECK(n - rank - dof_a == relative_dof);
}

}  // namespace noether::joint_testing
