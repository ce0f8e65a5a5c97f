#pragma once
/// Holonomic constraint elements g(q) = 0.
#include <noether/engine/element.hpp>
#include <noether/engine/exact_form.hpp>
#include <noether/engine/reaction.hpp>

namespace noether {

/// Holonomic constraint g(q) = 0 on n = local_size() coordinates, m = num_equations() rows.
/// G = Dg is m x n. Each row has its own multiplier; the System numbers them globally.
/// Discrete gradients Gbar(q_a, q_b) satisfy Gbar (q_b - q_a) = g(q_b) - g(q_a) row by row:
/// the midpoint Jacobian when nonlinearity() is at most quadratic (exact, and D^2 g_k is then
/// constant), Gonzalez row by row otherwise.
///
/// A constraint of degree <= 2 states its exact form g_k = c_k + L_k.q + 1/2 q^T H_k q once, at
/// construction (quadratic_form()); QuadraticConstraint evaluates from it. The structure analysis
/// and the steppers read that form: they never evaluate the constraint to find it.
class Constraint : public Element {
 public:
  using Element::Element;

  virtual Index num_equations() const = 0;
  /// general without an exact form; linear when the form has no Hessian, quadratic otherwise.
  Nonlinearity nonlinearity() const {
    const QuadraticFormView* form = quadratic_form();
    if (!form) return Nonlinearity::general;
    return form->is_linear() ? Nonlinearity::linear : Nonlinearity::quadratic;
  }
  /// The exact form (m functions of the n local coordinates), or nullptr for a general constraint.
  /// It lives as long as the element.
  const QuadraticFormView* quadratic_form() const { return do_quadratic_form(); }

  /// g(q), overwrites g (m).
  void calc_value(ConstVectorRef q, VectorRef g) const { do_calc_value(q, g); }
  /// G = Dg(q), overwrites G (m x n).
  void calc_jacobian(ConstVectorRef q, MatrixRef G) const { do_calc_jacobian(q, G); }
  /// K += s * sum_k lambda_k D^2 g_k(q)   (n x n, symmetric; lambda has m entries).
  void add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const {
    if (nonlinearity() != Nonlinearity::linear) do_add_hessian_contraction(q, lambda, s, K);
  }

  /// Gbar(q_a, q_b), overwrites Gbar (m x n).
  void calc_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const {
    do_calc_discrete_gradient(q_a, q_b, Gbar);
  }
  /// K += s * d/dq_b (Gbar(q_a, q_b)^T lambda)   (n x n).
  void add_discrete_gradient_contraction_jacobian(ConstVectorRef q_a, ConstVectorRef q_b,
                                                  ConstVectorRef lambda, double s, MatrixRef K) const {
    do_add_discrete_gradient_contraction_jacobian(q_a, q_b, lambda, s, K);
  }

  /// Where the constraint reports its reaction (engine/reaction.hpp): a joint's second body; nullptr
  /// for a constraint that reports none (a body's own orthonormality). It lives as long as the element.
  const ReactionSite* reaction_site() const { return do_reaction_site(); }

 protected:
  virtual const ReactionSite* do_reaction_site() const { return nullptr; }
  virtual const QuadraticFormView* do_quadratic_form() const { return nullptr; }
  virtual void do_calc_value(ConstVectorRef q, VectorRef g) const = 0;
  virtual void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const = 0;
  /// Called only for nonlinear constraints.
  virtual void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s,
                                          MatrixRef K) const = 0;
  /// The discrete gradient and its Jacobian: the midpoint Jacobian for degree <= 2, Gonzalez's row
  /// by row otherwise. A general constraint with a better one (one that keeps momenta,
  /// engine/discrete_gradients.hpp) overrides both together.
  virtual void do_calc_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const;
  virtual void do_add_discrete_gradient_contraction_jacobian(ConstVectorRef q_a, ConstVectorRef q_b,
                                                             ConstVectorRef lambda, double s, MatrixRef K) const;
};

/// A constraint of degree <= 2 given by its exact form: g, G and the Hessian contraction are
/// evaluated from it. The joints of the library and a director body's orthonormality are such.
class QuadraticConstraint : public Constraint {
 public:
  /// form: num_equations() functions of local_size() coordinates.
  QuadraticConstraint(std::string name, std::vector<BlockId> blocks, Index local_size, QuadraticForm form);

  Index local_size() const final { return local_size_; }
  Index num_equations() const final { return form_.num_functions(); }

 protected:
  const QuadraticFormView* do_quadratic_form() const final { return &form_; }
  void do_calc_value(ConstVectorRef q, VectorRef g) const final { form_.calc_value(q, g); }
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const final;
  void do_add_hessian_contraction(ConstVectorRef, ConstVectorRef lambda, double s, MatrixRef K) const final {
    form_.add_hessian_contraction(lambda, s, K);
  }

 private:
  Index local_size_;
  QuadraticForm form_;
};

}  // namespace noether
