#pragma once
/// A rotational spring and a rotational damper acting on the relative angle of a hinge (HingeAngle).
#include <noether/engine/discrete_derivative.hpp>
#include <noether/engine/dissipation.hpp>
#include <noether/engine/potential.hpp>
#include <noether/joints/hinge_angle.hpp>

namespace noether {

/// w(theta) = 1/2 k theta^2, k >= 0 (a linear torsion spring relaxed at theta = 0).
ScalarFunction torsion_spring_law(double stiffness);

/// V(q) = w(theta(q)) for the hinge angle theta in (-pi, pi) (HingeAngle; use HingeAngle::shifted to put
/// theta = 0 at the rest angle), w a user function with two derivatives. n = local_size():
///   DV = w' D theta   (n),   D^2 V = w'' D theta D theta^T + w' D^2 theta   (n x n).
/// Discrete gradient: Gonzalez's [Gonzalez1996] in the invariant plane pi = (c, s), chained
/// through the exact midpoint gradient of the quadratic invariants:
///   Dbar V(q_a, q_b) = Dpi(q_mid)^T Wbar,   Wbar = Dbar_Gonzalez W(pi_a, pi_b),   W(pi) = w(atan2(s, c)).
/// Dpi(q_mid).(q_b - q_a) = pi_b - pi_a exactly, so Dbar V.(q_b - q_a) = V(q_b) - V(q_a); and Dbar V is a
/// combination of gradients of invariants of rigid motion, so the step conserves linear and angular momentum.
/// Near-equal invariants fall back to the midpoint gradient (see invariant_discrete_gradient).
/// Precondition: no step crosses theta = +-pi (the deflection stays below half a turn).
class RotationalSpring final : public Potential {
 public:
  RotationalSpring(std::string name, HingeAngle angle, ScalarFunction energy_of_angle);

  Index local_size() const override { return angle_.local_size(); }
  const HingeAngle& hinge_angle() const { return angle_; }

  void add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const override;
  /// K += s * d/dq_b Dbar V = s * [ 1/2 (Wbar_c D^2 c + Wbar_s D^2 s) + Dpi(q_mid)^T dWbar/dpi_b Dpi(q_b) ].
  void add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s, MatrixRef K) const override;

 protected:
  double do_energy(ConstVectorRef q) const override { return law_(angle_.angle(q)).value; }
  void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const override;
  void do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const override;

 private:
  /// W(pi) = w(atan2(s, c)) with its gradient and Hessian in pi.
  struct InvariantEnergy {
    double value = 0.0;
    Vector gradient;  ///< 2
    Matrix hessian;   ///< 2 x 2
  };
  InvariantEnergy energy_of_invariants(const Eigen::Vector2d& pi) const;

  /// Wbar, Gonzalez's discrete gradient of W between pi_a and pi_b (2), and dWbar/dpi_b (2 x 2). When
  /// |pi_b - pi_a| <= scalar_discrete_derivative_gap (|pi_a| + |pi_b|) the midpoint form DW(pi_mid),
  /// 1/2 D^2 W(pi_mid) is used: the Gonzalez correction is O(gap^2) there (its directionality defect
  /// O(gap^3) is below round-off), and forming it would lose digits to cancellation.
  struct InvariantDiscreteGradient {
    Vector value;         ///< 2
    Matrix derivative_b;  ///< 2 x 2
  };
  InvariantDiscreteGradient invariant_discrete_gradient(const Eigen::Vector2d& pi_a, const Eigen::Vector2d& pi_b) const;

  HingeAngle angle_;
  ScalarFunction law_;
};

/// Rayleigh function G = 1/2 eta theta'^2, theta' = D theta(q) v the relative angular rate of the hinge:
///   C(q) = eta a a^T,  a = D theta(q)   (n x n, positive semi-definite),
///   d(C(q) v)/dq = eta [ (a.v) D^2 theta + a (D^2 theta v)^T ].
/// Dissipated power eta theta'^2 >= 0. a is orthogonal to every rigid motion of the pair (theta is
/// invariant), so the damping torques conserve linear and angular momentum.
class RotationalDamper final : public Dissipation {
 public:
  /// Throws std::invalid_argument for a negative or non-finite eta.
  RotationalDamper(std::string name, HingeAngle angle, double damping);

  Index local_size() const override { return angle_.local_size(); }
  bool has_constant_damping() const override { return false; }

 protected:
  void do_add_damping_matrix(ConstVectorRef q, double s, MatrixRef C) const override;
  void do_add_damping_force_q_jacobian(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef K) const override;

 private:
  HingeAngle angle_;
  double damping_;
};

}  // namespace noether
