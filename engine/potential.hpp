#pragma once
/// Potential elements: conservative forces -dV/dq.
#include <noether/engine/element.hpp>
#include <noether/engine/exact_form.hpp>

namespace noether {

/// Potential energy V(q) of n = local_size() coordinates.
/// Discrete gradients default to Gonzalez's corrected midpoint (engine/gonzalez.hpp), or to the
/// exact midpoint gradient when nonlinearity() is at most quadratic; elements with a better
/// discrete gradient (for example the invariant-based one of springs, which also conserves
/// angular momentum) override both discrete-gradient methods together.
///
/// A potential of degree <= 2 states its exact form V = c + l.q + 1/2 q^T H q once, at construction
/// (quadratic_form(), one function).
class Potential : public Element {
 public:
  using Element::Element;

  /// general without an exact form; linear when the form has no Hessian, quadratic otherwise.
  Nonlinearity nonlinearity() const {
    const QuadraticFormView* form = quadratic_form();
    if (!form) return Nonlinearity::general;
    return form->is_linear() ? Nonlinearity::linear : Nonlinearity::quadratic;
  }
  /// The exact form (one function of the n local coordinates), or nullptr for a general potential.
  /// It lives as long as the element.
  const QuadraticFormView* quadratic_form() const { return do_quadratic_form(); }

  /// V(q).
  double energy(ConstVectorRef q) const { return do_energy(q); }
  /// g += s * DV(q)   (n).
  void add_gradient(ConstVectorRef q, double s, VectorRef g) const { do_add_gradient(q, s, g); }
  /// K += s * D^2 V(q)   (n x n, symmetric).
  void add_hessian(ConstVectorRef q, double s, MatrixRef K) const { do_add_hessian(q, s, K); }

  /// g += s * Dbar V(q_a, q_b), with Dbar V(q_a, q_b).(q_b - q_a) = V(q_b) - V(q_a)   (n).
  virtual void add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const;
  /// K += s * d/dq_b Dbar V(q_a, q_b)   (n x n).
  virtual void add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s,
                                              MatrixRef K) const;

 protected:
  virtual const QuadraticFormView* do_quadratic_form() const { return nullptr; }
  virtual double do_energy(ConstVectorRef q) const = 0;
  virtual void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const = 0;
  virtual void do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const = 0;
};

}  // namespace noether
