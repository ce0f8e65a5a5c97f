#pragma once
/// The relative rotation angle of two bodies about a hinge axis, through two bilinear invariants.
/// Rotational springs and dampers are written against it.
#include <vector>

#include <noether/bodies/kinematics.hpp>

namespace noether {

/// theta(q) = atan2(s, c),   c = u_a . u_b,   s = w_a . u_b,
/// with (u_a, w_a) an orthonormal pair of body-fixed directions of body a spanning the plane normal to
/// the hinge axis (w_a = n_a x u_a for the axis n_a), or fixed world directions for the ground, and u_b a
/// unit body-fixed direction of body b normal to the hinge axis. When the hinge keeps u_b in the plane
/// of (u_a, w_a), u_b = cos(theta) u_a + sin(theta) w_a: theta is the rotation of b relative to a about
/// n_a, in (-pi, pi]. (In 3D s = (u_a x u_b).n_a on the manifold of orthonormal directors, written
/// bilinearly.) Planar bodies: u_a = d1_a, w_a = d2_a, u_b = d1_b.
/// Every direction is linear in the coordinates (bodies/kinematics.hpp), so c and s are quadratic in
/// q, their midpoint gradients are exact discrete gradients, and they do not change under a common
/// rigid motion of both bodies. Sizes: q local_size() (blocks(): [a, b], or [b] against the ground).
class HingeAngle {
 public:
  /// Body a carries (U_a, W_a), body b carries U_b (body coordinates). Throws std::invalid_argument
  /// unless both bodies have directors in the same dimension, U_a, W_a are orthonormal and U_b is unit.
  static HingeAngle between(const BodyRef& a, const Vector& U_a, const Vector& W_a, const BodyRef& b,
                            const Vector& U_b);
  /// The reference pair (u_ground, w_ground) is fixed in the world.
  static HingeAngle from_ground(const Vector& u_ground, const Vector& w_ground, const BodyRef& b, const Vector& U_b);
  /// Planar: the angle from d1 of body a to d1 of body b.
  static HingeAngle planar(const BodyRef& a, const BodyRef& b);
  /// Planar: the angle from the world x axis to d1 of body b.
  static HingeAngle planar_from_ground(const BodyRef& b);
  /// The same hinge measured from zero_angle: theta_shifted = theta - zero_angle, in (-pi, pi]
  /// (a's reference pair rotated by zero_angle, so the branch cut sits half a turn from it).
  HingeAngle shifted(double zero_angle) const;

  const std::vector<BlockId>& blocks() const { return blocks_; }
  Index local_size() const { return static_cast<Index>(u_b_.cols()); }

  /// pi(q) = (c, s)   (2).
  Eigen::Vector2d invariants(ConstVectorRef q) const;
  /// Dpi(q): row 0 Dc, row 1 Ds   (2 x n, linear in q).
  Matrix invariant_jacobian(ConstVectorRef q) const;
  /// D^2 c (k = 0) or D^2 s (k = 1), constant   (n x n, symmetric).
  const Matrix& invariant_hessian(Index k) const { return hessians_[k]; }

  /// theta(q).
  double angle(ConstVectorRef q) const;
  /// D theta = Dpi^T dtheta/dpi   (n).
  Vector angle_gradient(ConstVectorRef q) const;
  /// D^2 theta = Dpi^T (d^2 theta/dpi^2) Dpi + theta_c D^2 c + theta_s D^2 s   (n x n).
  Matrix angle_hessian(ConstVectorRef q) const;

 private:
  /// u_a = U q + u0, w_a = W q + w0, u_b = B q   (each dimension x n).
  HingeAngle(std::vector<BlockId> blocks, Matrix U, Vector u0, Matrix W, Vector w0, Matrix B);

  std::vector<BlockId> blocks_;
  Matrix u_a_, w_a_, u_b_;
  Vector u_a0_, w_a0_;
  Matrix hessians_[2];
};

/// theta = atan2(s, c) as a function of pi = (c, s) != 0, with r2 = c^2 + s^2:
///   dtheta/dpi = (-s, c) / r2,   d^2 theta/dpi^2 = [2cs, s^2 - c^2; s^2 - c^2, -2cs] / r2^2.
struct AngleOfInvariants {
  double angle = 0.0;
  Eigen::Vector2d gradient;
  Eigen::Matrix2d hessian;
};
AngleOfInvariants angle_of_invariants(const Eigen::Vector2d& pi);

}  // namespace noether
