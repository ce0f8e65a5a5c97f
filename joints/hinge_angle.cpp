#include <noether/joints/hinge_angle.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

constexpr double orthonormality_tolerance = 1e-12;

void require_orthonormal(const std::string& where, const Vector& u, const Vector& w, Index dimension) {
  if (u.size() != dimension || w.size() != dimension)
    throw std::invalid_argument("hinge angle: the reference directions of " + where + " need " +
                                std::to_string(dimension) + " components each");
  const bool ok = std::abs(u.squaredNorm() - 1.0) <= orthonormality_tolerance &&
                  std::abs(w.squaredNorm() - 1.0) <= orthonormality_tolerance &&
                  std::abs(u.dot(w)) <= orthonormality_tolerance;
  if (!ok)
    throw std::invalid_argument("hinge angle: the reference directions of " + where +
                                " must be orthonormal (unit length, perpendicular)");
}

void require_directors(const BodyRef& body, Index dimension) {
  if (!body.kinematics.has_directors())
    throw std::invalid_argument("hinge angle: body " + quote(body.name) +
                                " is a point mass and has no orientation; use a director body");
  if (body.kinematics.dimension() != dimension)
    throw std::invalid_argument("hinge angle: body " + quote(body.name) + " lives in dimension " +
                                std::to_string(body.kinematics.dimension()) + ", the hinge in " +
                                std::to_string(dimension));
}

void require_unit(const BodyRef& body, const Vector& U) {
  if (U.size() != body.kinematics.dimension())
    throw std::invalid_argument("hinge angle: the reference direction of body " + quote(body.name) + " needs " +
                                std::to_string(body.kinematics.dimension()) + " components");
  if (std::abs(U.squaredNorm() - 1.0) > orthonormality_tolerance)
    throw std::invalid_argument("hinge angle: the reference direction of body " + quote(body.name) +
                                " must have unit length");
}

/// [M, 0]: M's columns first, then `extra` zero columns.
Matrix pad_right(const Matrix& M, Index extra) {
  Matrix out = Matrix::Zero(M.rows(), M.cols() + extra);
  out.leftCols(M.cols()) = M;
  return out;
}

Matrix pad_left(const Matrix& M, Index extra) {
  Matrix out = Matrix::Zero(M.rows(), M.cols() + extra);
  out.rightCols(M.cols()) = M;
  return out;
}

}  // namespace

HingeAngle::HingeAngle(std::vector<BlockId> blocks, Matrix U, Vector u0, Matrix W, Vector w0, Matrix B)
    : blocks_(std::move(blocks)),
      u_a_(std::move(U)),
      w_a_(std::move(W)),
      u_b_(std::move(B)),
      u_a0_(std::move(u0)),
      w_a0_(std::move(w0)) {
  hessians_[0] = u_a_.transpose() * u_b_ + u_b_.transpose() * u_a_;
  hessians_[1] = w_a_.transpose() * u_b_ + u_b_.transpose() * w_a_;
}

HingeAngle HingeAngle::between(const BodyRef& a, const Vector& U_a, const Vector& W_a, const BodyRef& b,
                               const Vector& U_b) {
  const Index dim = a.kinematics.dimension();
  require_directors(a, dim);
  require_directors(b, dim);
  if (a.block == b.block)
    throw std::invalid_argument("hinge angle: bodies " + quote(a.name) + " and " + quote(b.name) + " are the same block");
  require_orthonormal("body " + quote(a.name), U_a, W_a, dim);
  require_unit(b, U_b);
  const Index n_a = a.kinematics.size(), n_b = b.kinematics.size();
  return HingeAngle({a.block, b.block}, pad_right(a.kinematics.direction_map(U_a), n_b), Vector::Zero(dim),
                    pad_right(a.kinematics.direction_map(W_a), n_b), Vector::Zero(dim),
                    pad_left(b.kinematics.direction_map(U_b), n_a));
}

HingeAngle HingeAngle::from_ground(const Vector& u_ground, const Vector& w_ground, const BodyRef& b,
                                   const Vector& U_b) {
  require_directors(b, b.kinematics.dimension());
  require_orthonormal("the ground", u_ground, w_ground, b.kinematics.dimension());
  require_unit(b, U_b);
  const Index dim = b.kinematics.dimension(), n = b.kinematics.size();
  return HingeAngle({b.block}, Matrix::Zero(dim, n), u_ground, Matrix::Zero(dim, n), w_ground,
                    b.kinematics.direction_map(U_b));
}

HingeAngle HingeAngle::planar(const BodyRef& a, const BodyRef& b) {
  return between(a, Eigen::Vector2d::UnitX(), Eigen::Vector2d::UnitY(), b, Eigen::Vector2d::UnitX());
}

HingeAngle HingeAngle::planar_from_ground(const BodyRef& b) {
  return from_ground(Eigen::Vector2d::UnitX(), Eigen::Vector2d::UnitY(), b, Eigen::Vector2d::UnitX());
}

HingeAngle HingeAngle::shifted(double zero_angle) const {
  const double c = std::cos(zero_angle), s = std::sin(zero_angle);
  return HingeAngle(blocks_, c * u_a_ + s * w_a_, c * u_a0_ + s * w_a0_, c * w_a_ - s * u_a_, c * w_a0_ - s * u_a0_,
                    u_b_);
}

Eigen::Vector2d HingeAngle::invariants(ConstVectorRef q) const {
  const Vector u_b = u_b_ * q;
  return {(u_a_ * q + u_a0_).dot(u_b), (w_a_ * q + w_a0_).dot(u_b)};
}

Matrix HingeAngle::invariant_jacobian(ConstVectorRef q) const {
  const Vector u_b = u_b_ * q;
  Matrix A(2, local_size());
  A.row(0) = (u_a_.transpose() * u_b + u_b_.transpose() * (u_a_ * q + u_a0_)).transpose();
  A.row(1) = (w_a_.transpose() * u_b + u_b_.transpose() * (w_a_ * q + w_a0_)).transpose();
  return A;
}

double HingeAngle::angle(ConstVectorRef q) const {
  const Eigen::Vector2d pi = invariants(q);
  return std::atan2(pi(1), pi(0));
}

Vector HingeAngle::angle_gradient(ConstVectorRef q) const {
  return invariant_jacobian(q).transpose() * angle_of_invariants(invariants(q)).gradient;
}

Matrix HingeAngle::angle_hessian(ConstVectorRef q) const {
  const AngleOfInvariants theta = angle_of_invariants(invariants(q));
  const Matrix A = invariant_jacobian(q);
  return A.transpose() * theta.hessian * A + theta.gradient(0) * hessians_[0] + theta.gradient(1) * hessians_[1];
}

AngleOfInvariants angle_of_invariants(const Eigen::Vector2d& pi) {
  const double c = pi(0), s = pi(1), r2 = pi.squaredNorm();
  AngleOfInvariants out;
  out.angle = std::atan2(s, c);
  out.gradient = Eigen::Vector2d(-s, c) / r2;
  out.hessian << 2.0 * c * s, s * s - c * c, s * s - c * c, -2.0 * c * s;
  out.hessian /= r2 * r2;
  return out;
}

}  // namespace noether
