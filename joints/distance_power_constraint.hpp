#pragma once
/// A constraint on particle positions through powers of their distances, with a chosen discrete
/// gradient [DiscreteDerivativesEM].
#include <vector>

#include <noether/engine/constraint.hpp>
#include <noether/engine/discrete_gradients.hpp>

namespace noether {

/// a |r_first - r_second|^(2 power): one term of a DistancePowerConstraint.
struct DistancePowerTerm {
  Index first = 0, second = 0;  ///< particle indices, in the constraint's list of points
  double coefficient = 1.0;     ///< a
  int power = 1;                ///< p >= 1
};

/// Phi(q) = sum_k a_k |r_{i_k} - r_{j_k}|^(2 p_k) - c = 0: one equation on P points of dimension D
/// (n = P D local coordinates, the points' blocks in order). Each term is invariant under
/// translations and rotations, so Phi is, and the continuous motion keeps linear and angular
/// momentum (eq. (9) of [DiscreteDerivativesEM]). Of general nonlinearity (no exact form) when a
/// power exceeds 1.
///
/// Its discrete gradient is the chosen one of engine/discrete_gradients.hpp. The scaled midpoint
/// is applied term by term, Gbar = sum_k rho_k Df_k(z), rho_k = (f_k(y) - f_k(x)) / (Df_k(z).w):
/// directional (the terms' increments add up to Phi's) and symmetric (each Df_k(z) is); applied to
/// Phi itself it would be 0/0 or 0 on the constraint (Phi(x) = Phi(y) = 0). This split is our
/// reconstruction of the seed's "splitting technique" (its extract does not state it). The other
/// kinds are applied to Phi as a whole.
///
/// Derivatives, d = r_i - r_j, f = a |d|^(2p):
///   Df = +-2 a p |d|^(2p-2) d   (at r_i, r_j),
///   D^2 f = +-2 a p (|d|^(2p-2) I + (2p - 2) |d|^(2p-4) d d^T)   (blocks ii, jj: +; ij, ji: -).
class DistancePowerConstraint final : public Constraint {
 public:
  /// points: the P blocks, each of `dimension` (2 or 3) coordinates. Throws std::invalid_argument
  /// naming the constraint for an empty term list, a term's index out of range or equal, or a
  /// power below 1.
  DistancePowerConstraint(std::string name, std::vector<BlockId> points, Index dimension,
                          std::vector<DistancePowerTerm> terms, double c, DiscreteGradientKind kind);

  Index local_size() const override { return static_cast<Index>(blocks().size()) * dimension_; }
  Index num_equations() const override { return 1; }
  DiscreteGradientKind discrete_gradient_kind() const { return kind_; }

 protected:
  void do_calc_value(ConstVectorRef q, VectorRef g) const override;
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const override;
  void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const override;
  void do_calc_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const override;
  void do_add_discrete_gradient_contraction_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, ConstVectorRef lambda,
                                                     double s, MatrixRef K) const override;

 private:
  /// Term k as a scalar field of the n local coordinates; k = -1: Phi itself.
  ScalarField field(int k) const;
  double term_value(const DistancePowerTerm& t, ConstVectorRef q) const;
  void add_term_gradient(const DistancePowerTerm& t, ConstVectorRef q, double s, VectorRef g) const;
  void add_term_hessian(const DistancePowerTerm& t, ConstVectorRef q, double s, MatrixRef K) const;

  Index dimension_;
  std::vector<DistancePowerTerm> terms_;
  double c_;
  DiscreteGradientKind kind_;
};

}  // namespace noether
