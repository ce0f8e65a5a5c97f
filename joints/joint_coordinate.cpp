#include <noether/joints/joint_coordinate.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// alpha = atan2(X, D)/X and its partial derivatives.
struct TurnFactor {
  double value, d_X, d_D;
};

/// Below |X/D| = kSeriesRange (D > 0), alpha = phi(x)/D with x = X/D and phi(x) = atan(x)/x from its
/// series to x^10 (the next term is below 1e-25); beyond it the closed form, whose d/dX then loses
/// at most 4 digits to cancellation (a Newton tangent entry, not the residual).
constexpr double kSeriesRange = 1e-2;

TurnFactor turn_factor(double X, double D) {
  const double r2 = X * X + D * D;
  if (D > 0.0 && std::abs(X) < kSeriesRange * D) {
    const double x = X / D, x2 = x * x;
    double phi = 0.0, phi_x = 0.0, even = 1.0, odd = x;  // x^(2k), and x^(2k-1) from k = 1 on
    for (int k = 0; k <= 5; ++k) {
      const double c = (k % 2 == 0 ? 1.0 : -1.0) / (2 * k + 1);
      phi += c * even;
      if (k > 0) {
        phi_x += c * 2.0 * k * odd;
        odd *= x2;
      }
      even *= x2;
    }
    return {phi / D, phi_x / (D * D), -1.0 / r2};
  }
  const double a = std::atan2(X, D);
  return {a / X, (D / r2 - a / X) / X, -1.0 / r2};
}

Eigen::Vector2d rotate_quarter(const Eigen::Vector2d& pi) { return {-pi(1), pi(0)}; }

/// [M, 0] or [0, M]: M's columns placed among `total` columns from `first` on.
Matrix place_columns(const Matrix& M, Index first, Index total) {
  Matrix out = Matrix::Zero(M.rows(), total);
  out.middleCols(first, M.cols()) = M;
  return out;
}

void require_axis(const Vector& n, Index dimension, const std::string& where) {
  if (n.size() != dimension || !n.allFinite() || std::abs(n.squaredNorm() - 1.0) > 1e-12)
    throw std::invalid_argument("slide coordinate: the axis of " + where + " needs " + std::to_string(dimension) +
                                " finite components and unit length");
}

void require_point(const Vector& p, Index dimension, const std::string& where) {
  if (p.size() != dimension || !p.allFinite())
    throw std::invalid_argument("slide coordinate: the point of " + where + " needs " + std::to_string(dimension) +
                                " finite components");
}

}  // namespace

double coordinate_difference(double x, double r, double period) {
  const double e = x - r, half = 0.5 * period;
  if (period <= 0.0 || (e > -half && e <= half)) return e;
  const double wrapped = std::remainder(e, period);  // exact, in [-P/2, P/2]
  return wrapped <= -half ? wrapped + period : wrapped;
}

double HingeCoordinate::period() const { return 2.0 * std::numbers::pi; }

double HingeCoordinate::increment(ConstVectorRef q0, ConstVectorRef q1) const {
  const Eigen::Vector2d pi0 = angle_.invariants(q0), pi1 = angle_.invariants(q1);
  return std::atan2(pi0(0) * pi1(1) - pi0(1) * pi1(0), pi0.dot(pi1));
}

Vector HingeCoordinate::discrete_gradient(ConstVectorRef q0, ConstVectorRef q1) const {
  const Eigen::Vector2d pi0 = angle_.invariants(q0), pi1 = angle_.invariants(q1);
  const TurnFactor alpha = turn_factor(pi0(0) * pi1(1) - pi0(1) * pi1(0), pi0.dot(pi1));
  const Eigen::Vector2d theta_bar = alpha.value * rotate_quarter(0.5 * (pi0 + pi1));
  return angle_.invariant_jacobian(0.5 * (q0 + q1)).transpose() * theta_bar;
}

void HingeCoordinate::add_discrete_gradient_jacobian(ConstVectorRef q0, ConstVectorRef q1, double s,
                                                     MatrixRef K) const {
  const Eigen::Vector2d pi0 = angle_.invariants(q0), pi1 = angle_.invariants(q1);
  const TurnFactor alpha = turn_factor(pi0(0) * pi1(1) - pi0(1) * pi1(0), pi0.dot(pi1));
  const Eigen::Vector2d j_mid = rotate_quarter(0.5 * (pi0 + pi1)), theta_bar = alpha.value * j_mid;
  // dX/dpi1 = J pi0, dD/dpi1 = pi0; d(J pi_mid)/dpi1 = J/2.
  const Eigen::Vector2d d_alpha = alpha.d_X * rotate_quarter(pi0) + alpha.d_D * pi0;
  Eigen::Matrix2d J;
  J << 0.0, -1.0, 1.0, 0.0;
  const Eigen::Matrix2d d_theta_bar = j_mid * d_alpha.transpose() + (0.5 * alpha.value) * J;
  K.noalias() += s * (angle_.invariant_jacobian(0.5 * (q0 + q1)).transpose() * d_theta_bar *
                      angle_.invariant_jacobian(q1));
  K.noalias() += (0.5 * s * theta_bar(0)) * angle_.invariant_hessian(0);
  K.noalias() += (0.5 * s * theta_bar(1)) * angle_.invariant_hessian(1);
}

std::string HingeCoordinate::singularity(ConstVectorRef q) const {
  if (angle_.invariants(q).squaredNorm() > 0.0) return {};
  return "the hinge angle is undefined: body b's reference direction lies along the hinge axis";
}

SlideCoordinate::SlideCoordinate(std::vector<BlockId> blocks, Matrix D, Vector d0, Matrix N, Vector n0)
    : blocks_(std::move(blocks)), d_(std::move(D)), n_(std::move(N)), d0_(std::move(d0)), n0_(std::move(n0)) {
  hessian_ = d_.transpose() * n_ + n_.transpose() * d_;
}

SlideCoordinate SlideCoordinate::between(const BodyRef& a, const Vector& P_a, const Vector& N_a, const BodyRef& b,
                                         const Vector& P_b) {
  const Index dim = a.kinematics.dimension();
  if (!a.kinematics.has_directors())
    throw std::invalid_argument("slide coordinate: body " + quote(a.name) +
                                " is a point mass and carries no axis; put the axis on a director body");
  if (b.kinematics.dimension() != dim)
    throw std::invalid_argument("slide coordinate: bodies " + quote(a.name) + " and " + quote(b.name) +
                                " live in different dimensions");
  if (a.block == b.block)
    throw std::invalid_argument("slide coordinate: bodies " + quote(a.name) + " and " + quote(b.name) +
                                " are the same block");
  require_axis(N_a, dim, "body " + quote(a.name));
  require_point(P_a, dim, "body " + quote(a.name));
  require_point(P_b, dim, "body " + quote(b.name));
  const Index n_a = a.kinematics.size(), n = n_a + b.kinematics.size();
  const Matrix D = place_columns(b.kinematics.point_map(P_b), n_a, n) - place_columns(a.kinematics.point_map(P_a), 0, n);
  return SlideCoordinate({a.block, b.block}, D, Vector::Zero(dim), place_columns(a.kinematics.direction_map(N_a), 0, n),
                         Vector::Zero(dim));
}

SlideCoordinate SlideCoordinate::from_ground(const Vector& p_ground, const Vector& n_ground, const BodyRef& b,
                                             const Vector& P_b) {
  const Index dim = b.kinematics.dimension();
  require_axis(n_ground, dim, "the ground");
  require_point(p_ground, dim, "the ground");
  require_point(P_b, dim, "body " + quote(b.name));
  return SlideCoordinate({b.block}, b.kinematics.point_map(P_b), -p_ground, Matrix::Zero(dim, b.kinematics.size()),
                         n_ground);
}

double SlideCoordinate::value(ConstVectorRef q) const { return (d_ * q + d0_).dot(n_ * q + n0_); }

Vector SlideCoordinate::gradient(ConstVectorRef q) const {
  return d_.transpose() * (n_ * q + n0_) + n_.transpose() * (d_ * q + d0_);
}

}  // namespace noether
