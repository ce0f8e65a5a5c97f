#pragma once
/// The scalar coordinate of a joint that an actuator acts along: the angle of a hinge, the slide of
/// a prismatic joint, each with an exact discrete gradient.
#include <memory>
#include <string>
#include <vector>

#include <noether/bodies/kinematics.hpp>
#include <noether/joints/hinge_angle.hpp>

namespace noether {

/// x(q) on the coordinates of one or two bodies (local_size() = n, blocks() as the element's), with
/// a discrete gradient Dbar x(q0, q1) (n) such that
///   Dbar x(q0, q1).(q1 - q0) = increment(q0, q1) = x(q1) - x(q0)
/// to round-off, Dbar x(q, q) = D x(q), and invariant under a common rigid motion of the bodies, so
/// that a force u Dbar x does the work u (x(q1) - x(q0)) over a step and keeps the momenta.
class JointCoordinate {
 public:
  virtual ~JointCoordinate() = default;
  virtual const std::vector<BlockId>& blocks() const = 0;
  virtual Index local_size() const = 0;
  /// "angle" or "displacement", for messages.
  virtual const char* quantity() const = 0;

  virtual double value(ConstVectorRef q) const = 0;
  /// D x(q)   (n).
  virtual Vector gradient(ConstVectorRef q) const = 0;
  /// x(q1) - x(q0) along the step.
  virtual double increment(ConstVectorRef q0, ConstVectorRef q1) const = 0;
  /// Dbar x(q0, q1)   (n).
  virtual Vector discrete_gradient(ConstVectorRef q0, ConstVectorRef q1) const = 0;
  /// K += s * d Dbar x(q0, q1)/dq1   (n x n).
  virtual void add_discrete_gradient_jacobian(ConstVectorRef q0, ConstVectorRef q1, double s, MatrixRef K) const = 0;
  /// Why x is undefined at q, "" where it is defined (Element::singularity).
  virtual std::string singularity(ConstVectorRef /*q*/) const { return {}; }
  /// P > 0 when x and x + k P are one configuration (2 pi for a hinge angle, which value() gives in
  /// (-pi, pi]); 0 for a coordinate that is not periodic. coordinate_difference measures by it.
  virtual double period() const { return 0.0; }
};

/// x - r for a coordinate of period P (JointCoordinate::period): for P > 0 taken into (-P/2, P/2],
/// the difference of the nearest representatives (x in (-pi, pi] against a reference r that runs over
/// many turns), for P = 0 as it is. Inside (-P/2, P/2] it is x - r itself, to the bit.
double coordinate_difference(double x, double r, double period);

/// The hinge angle theta = atan2(s, c) of HingeAngle (pi = (c, s) bilinear in q). Over a step,
/// with X = pi0 x pi1 = c0 s1 - s0 c1 and D = pi0.pi1:
///   increment = atan2(X, D)   (the turn from q0 to q1, in (-pi, pi]: the angle may cross +-pi),
///   Dbar theta = Dpi(q_mid)^T alpha J pi_mid,   J (c, s) = (-s, c),   alpha = atan2(X, D) / X.
/// Dpi(q_mid).(q1 - q0) = pi1 - pi0 exactly (pi is quadratic), and J pi_mid.(pi1 - pi0) = X, so
/// Dbar theta.(q1 - q0) = atan2(X, D): exact, with no fall-back for near-equal ends (alpha -> 1/|pi|^2,
/// Dbar theta -> D theta as q1 -> q0; alpha is taken from its series near X = 0).
/// Precondition: no step turns the hinge by half a turn (X = 0 with D < 0).
class HingeCoordinate final : public JointCoordinate {
 public:
  explicit HingeCoordinate(HingeAngle angle) : angle_(std::move(angle)) {}

  const std::vector<BlockId>& blocks() const override { return angle_.blocks(); }
  Index local_size() const override { return angle_.local_size(); }
  const char* quantity() const override { return "angle"; }
  const HingeAngle& hinge_angle() const { return angle_; }

  double value(ConstVectorRef q) const override { return angle_.angle(q); }
  Vector gradient(ConstVectorRef q) const override { return angle_.angle_gradient(q); }
  double increment(ConstVectorRef q0, ConstVectorRef q1) const override;
  Vector discrete_gradient(ConstVectorRef q0, ConstVectorRef q1) const override;
  /// K += s [Dpi(q_mid)^T dThetabar/dpi1 Dpi(q1) + 1/2 (Thetabar_c D^2 c + Thetabar_s D^2 s)].
  void add_discrete_gradient_jacobian(ConstVectorRef q0, ConstVectorRef q1, double s, MatrixRef K) const override;
  std::string singularity(ConstVectorRef q) const override;
  /// 2 pi.
  double period() const override;

 private:
  HingeAngle angle_;
};

/// The slide x = (p_b - p_a).n_a of a point P_b of body b from a point P_a of body a along a unit
/// axis N_a fixed in a (or fixed points and axis in the world for the ground): quadratic in q (d =
/// p_b - p_a and n_a are linear), so the midpoint gradient is its exact discrete gradient and
/// d Dbar x/dq1 = 1/2 D^2 x, constant. x is unchanged by a common rigid motion of both bodies.
class SlideCoordinate final : public JointCoordinate {
 public:
  /// Throws std::invalid_argument unless a has directors, both bodies live in one dimension, N_a
  /// has unit length and the points have that dimension's entries.
  static SlideCoordinate between(const BodyRef& a, const Vector& P_a, const Vector& N_a, const BodyRef& b,
                                 const Vector& P_b);
  static SlideCoordinate from_ground(const Vector& p_ground, const Vector& n_ground, const BodyRef& b,
                                     const Vector& P_b);

  const std::vector<BlockId>& blocks() const override { return blocks_; }
  Index local_size() const override { return static_cast<Index>(d_.cols()); }
  const char* quantity() const override { return "displacement"; }

  double value(ConstVectorRef q) const override;
  Vector gradient(ConstVectorRef q) const override;
  double increment(ConstVectorRef q0, ConstVectorRef q1) const override { return value(q1) - value(q0); }
  Vector discrete_gradient(ConstVectorRef q0, ConstVectorRef q1) const override { return gradient(0.5 * (q0 + q1)); }
  void add_discrete_gradient_jacobian(ConstVectorRef, ConstVectorRef, double s, MatrixRef K) const override {
    K.noalias() += (0.5 * s) * hessian_;
  }

 private:
  /// d = D q + d0, n = N q + n0   (dimension x n each).
  SlideCoordinate(std::vector<BlockId> blocks, Matrix D, Vector d0, Matrix N, Vector n0);

  std::vector<BlockId> blocks_;
  Matrix d_, n_;
  Vector d0_, n0_;
  Matrix hessian_;  ///< D^T N + N^T D
};

}  // namespace noether
