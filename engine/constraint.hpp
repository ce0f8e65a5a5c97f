#pragma once
/// Holonomic constraint elements g(q) = 0.
#include <noether/engine/element.hpp>

namespace noether {

/// Holonomic constraint g(q) = 0 on n = local_size() coordinates, m = num_equations() rows.
/// G = Dg is m x n. Each row has its own multiplier; the System numbers them globally.
/// Discrete gradients Gbar(q_a, q_b) satisfy Gbar (q_b - q_a) = g(q_b) - g(q_a) row by row:
/// the midpoint Jacobian when nonlinearity() is at most quadratic (exact, and D^2 g_k is then
/// constant), Gonzalez row by row otherwise.
class Constraint : public Element {
 public:
  using Element::Element;

  virtual Index num_equations() const = 0;
  virtual Nonlinearity nonlinearity() const = 0;

  /// g(q), overwrites g (m).
  void calc_value(ConstVectorRef q, VectorRef g) const { do_calc_value(q, g); }
  /// G = Dg(q), overwrites G (m x n).
  void calc_jacobian(ConstVectorRef q, MatrixRef G) const { do_calc_jacobian(q, G); }
  /// K += s * sum_k lambda_k D^2 g_k(q)   (n x n, symmetric; lambda has m entries).
  void add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const {
    if (nonlinearity() != Nonlinearity::linear) do_add_hessian_contraction(q, lambda, s, K);
  }

  /// Gbar(q_a, q_b), overwrites Gbar (m x n).
  void calc_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const;
  /// K += s * d/dq_b (Gbar(q_a, q_b)^T lambda)   (n x n).
  void add_discrete_gradient_contraction_jacobian(ConstVectorRef q_a, ConstVectorRef q_b,
                                                  ConstVectorRef lambda, double s, MatrixRef K) const;

 protected:
  virtual void do_calc_value(ConstVectorRef q, VectorRef g) const = 0;
  virtual void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const = 0;
  /// Called only for nonlinear constraints.
  virtual void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s,
                                          MatrixRef K) const = 0;
};

}  // namespace noether
