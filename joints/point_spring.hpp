#pragma once
/// Point-to-point springs with the invariant-based discrete gradient [DiscreteDerivativesEM]:
/// for V(q) = W(pi(q)) with a quadratic invariant pi, Dbar V(q_a, q_b) = Dpi(q_mid)^T Wbar(pi_a, pi_b).
#include <noether/engine/discrete_derivative.hpp>
#include <noether/engine/potential.hpp>
#include <noether/joints/force_point_pair.hpp>

namespace noether {

/// A spring's strain energy as a function of the squared length pi = |x_a - x_b|^2: W(pi), W'(pi), W''(pi).
using SpringLaw = ScalarFunction;

/// W = 1/2 k (sqrt(pi) - L0)^2: the linear spring of stiffness k >= 0 and rest length L0 >= 0.
/// Precondition pi > 0 when L0 > 0 (the force direction is undefined at zero length).
SpringLaw linear_spring_law(double stiffness, double rest_length);
/// W = 1/2 EA eps^2, eps = (pi - L0^2) / (2 L0^2) (Green strain; the spring pendulum of
/// [KinonBetsch2023, Sec. 6.2]):
/// quadratic in pi, so smooth at every length. EA >= 0, L0 > 0.
SpringLaw green_strain_spring_law(double axial_stiffness, double rest_length);
/// W(pi) = w(sqrt(pi)) from an energy w(L) of the length with its two derivatives:
/// W' = w'/(2L), W'' = (w'' - w'/L)/(4 L^2). Precondition pi > 0.
SpringLaw spring_law_of_length(ScalarFunction energy_of_length);

/// V(q) = W(pi(q)),  pi = |r|^2,  r = x_a - x_b = J q + r_0 (ForcePointPair), n = local_size():
///   DV = W'(pi) Dpi,  Dpi = 2 J^T r   (n);   D^2 V = W''(pi) Dpi Dpi^T + 2 W'(pi) J^T J   (n x n).
/// Discrete gradient (invariant form, [DiscreteDerivativesEM]):
///   Dbar V(q_a, q_b) = Wbar Dpi(q_mid),   Wbar = (W(pi_b) - W(pi_a)) / (pi_b - pi_a)  (-> W'(pi) as they meet;
///   near-equal pi_a, pi_b use the midpoint Taylor form of scalar_discrete_derivative).
/// pi is quadratic, so Dpi(q_mid).(q_b - q_a) = pi_b - pi_a exactly and the identity
/// Dbar V.(q_b - q_a) = V(q_b) - V(q_a) holds. Dbar V is a multiple of Dpi(q_mid) = 2 J^T r_mid: the
/// two points receive equal and opposite forces +-2 Wbar r_mid along r_mid = x_a,mid - x_b,mid, so
/// their sum and their moment sum x_mid x F vanish: the step conserves linear and angular momentum
/// (Gonzalez applied to V in q adds a multiple of q_b - q_a, which does not).
class PointSpring final : public Potential {
 public:
  PointSpring(std::string name, ForcePointPair points, SpringLaw law);

  Index local_size() const override { return points_.local_size(); }
  /// pi(q) = |x_a - x_b|^2.
  double squared_length(ConstVectorRef q) const { return points_.separation(q).squaredNorm(); }

  /// At pi = 0 where the law W or its derivatives are not finite there (a linear spring of rest
  /// length L0 > 0: the direction of its force is undefined at zero length).
  std::string singularity(ConstVectorRef q) const override;

  void add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const override;
  /// K += s * d/dq_b Dbar V = s * [ dWbar/dpi_b Dpi(q_mid) Dpi(q_b)^T + Wbar J^T J ].
  void add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s, MatrixRef K) const override;

 protected:
  double do_energy(ConstVectorRef q) const override { return law_(squared_length(q)).value; }
  void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const override;
  void do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const override;

 private:
  /// Dpi(q) = 2 J^T r(q)   (n).
  Vector invariant_gradient(ConstVectorRef q) const;

  ForcePointPair points_;
  SpringLaw law_;
};

}  // namespace noether
