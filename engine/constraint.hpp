#pragma once
/// Holonomic constraint elements g(q) = 0, and rheonomic ones g(q, t) = 0 (driven joints).
#include <memory>

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

  /// Rheonomic: g depends on time as well, g(q, t) = 0 (a driven joint, joints/driven_joint.hpp).
  /// Such a constraint has no exact form (nonlinearity() is general), but at every fixed t it is
  /// of degree <= 2 in q: the schemes build its discrete gradients from that (below). Its
  /// time-free functions above evaluate at t = 0; whoever knows the time calls the *_at ones. A
  /// scleronomic constraint ignores t in them, and its rate is zero.
  bool rheonomic() const { return do_rheonomic(); }
  /// g(q, t), overwrites g (m).
  void calc_value_at(double t, ConstVectorRef q, VectorRef g) const {
    do_calc_value_at(t, q, g);
  }
  /// G = D_q g(q, t), overwrites G (m x n).
  void calc_jacobian_at(double t, ConstVectorRef q, MatrixRef G) const {
    do_calc_jacobian_at(t, q, G);
  }
  /// K += s * sum_k lambda_k D_q^2 g_k(q, t)   (n x n).
  void add_hessian_contraction_at(double t, ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const {
    do_add_hessian_contraction_at(t, q, lambda, s, K);
  }
  /// The rate g_t = dg/dt(q, t), overwrites g_t (m); zero for a scleronomic constraint. The
  /// velocity constraint of a rheonomic one is G v + g_t = 0.
  void calc_rate(double t, ConstVectorRef q, VectorRef g_t) const {
    do_calc_rate(t, q, g_t);
  }
  /// D_q g_t(q, t), overwrites G_t (m x n); zero for a scleronomic constraint.
  void calc_rate_jacobian(double t, ConstVectorRef q, MatrixRef G_t) const {
    do_calc_rate_jacobian(t, q, G_t);
  }

  /// K += s * sum_k lambda_k D_q^2 (dg_k/dt)(q, t)   (n x n); nothing for a scleronomic constraint.
  void add_rate_hessian_contraction(double t, ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const {
    do_add_rate_hessian_contraction(t, q, lambda, s, K);
  }

  /// The discrete gradient of a rheonomic constraint over a step from (q_a, t_a) to (q_b, t_b),
  /// split symmetrically into a part in q and a part in t:
  ///   Gbar = 1/2 (G(q_mid, t_a) + G(q_mid, t_b))                          (m x n)
  ///   dbar = 1/2 (g(q_a, t_b) - g(q_a, t_a) + g(q_b, t_b) - g(q_b, t_a))   (m)
  /// with Gbar (q_b - q_a) + dbar = g(q_b, t_b) - g(q_a, t_a) exactly, because g is of degree <= 2
  /// in q at each fixed t (the midpoint gradient is then exact at t_a and at t_b). dbar is what the
  /// constraint's time dependence adds over the step: with g = 0 at both ends, the reaction force
  /// -Gbar^T lambda does the work lambda.dbar over the step (the work of a drive). For a
  /// scleronomic constraint of degree <= 2, Gbar is its midpoint gradient and dbar = 0.
  /// Overwrites Gbar.
  void calc_discrete_gradient_at(double t_a, double t_b, ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const;
  /// dbar as above, overwrites dbar (m).
  void calc_discrete_time_difference(double t_a, double t_b, ConstVectorRef q_a, ConstVectorRef q_b,
                                     VectorRef dbar) const;
  /// K += s * d/dq_b (Gbar^T lambda) = s/4 sum_k lambda_k (D^2 g_k(t_a) + D^2 g_k(t_b))   (n x n).
  void add_discrete_gradient_contraction_jacobian_at(double t_a, double t_b, ConstVectorRef q_a, ConstVectorRef q_b,
                                                     ConstVectorRef lambda, double s, MatrixRef K) const;

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
  /// A rheonomic constraint overrides all of these together (the *_at functions' meanings; its
  /// time-free do_* are the same at t = 0); a scleronomic one keeps them: its functions of q, rates 0.
  virtual bool do_rheonomic() const { return false; }
  virtual void do_calc_value_at(double, ConstVectorRef q, VectorRef g) const { do_calc_value(q, g); }
  virtual void do_calc_jacobian_at(double, ConstVectorRef q, MatrixRef G) const { do_calc_jacobian(q, G); }
  virtual void do_add_hessian_contraction_at(double, ConstVectorRef q, ConstVectorRef lambda, double s,
                                             MatrixRef K) const {
    add_hessian_contraction(q, lambda, s, K);
  }
  virtual void do_calc_rate(double, ConstVectorRef, VectorRef g_t) const { g_t.setZero(); }
  virtual void do_calc_rate_jacobian(double, ConstVectorRef, MatrixRef G_t) const { G_t.setZero(); }
  virtual void do_add_rate_hessian_contraction(double, ConstVectorRef, ConstVectorRef, double, MatrixRef) const {}
};

/// A constraint of degree <= 2 given by its exact form: g, G and the Hessian contraction are
/// evaluated from it. The joints of the library and a director body's orthonormality are such.
class QuadraticConstraint : public Constraint {
 public:
  /// form: num_equations() functions of local_size() coordinates.
  QuadraticConstraint(std::string name, std::vector<BlockId> blocks, Index local_size, QuadraticForm form);
  /// The same with a form shared by many constraints alike (a body's orthonormality: one form for
  /// every body of a dimension), held once instead of copied into each.
  QuadraticConstraint(std::string name, std::vector<BlockId> blocks, Index local_size,
                      std::shared_ptr<const QuadraticForm> form);

  Index local_size() const final { return local_size_; }
  Index num_equations() const final { return form_->num_functions(); }

 protected:
  const QuadraticFormView* do_quadratic_form() const final { return form_.get(); }
  void do_calc_value(ConstVectorRef q, VectorRef g) const final { form_->calc_value(q, g); }
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const final;
  void do_add_hessian_contraction(ConstVectorRef, ConstVectorRef lambda, double s, MatrixRef K) const final {
    form_->add_hessian_contraction(lambda, s, K);
  }

 private:
  Index local_size_;
  std::shared_ptr<const QuadraticForm> form_;  ///< never null
};

}  // namespace noether
