#pragma once
/// Prescribed external loads: generalized forces given as functions of time.
#include <noether/engine/element.hpp>

namespace noether {

/// Generalized force f(t, q) on n = local_size() coordinates (a force or torque prescribed in
/// time, mapped to the element's coordinates). Its work over a step enters the energy balance.
class ExternalLoad : public Element {
 public:
  using Element::Element;

  /// f += s * f(t, q)   (n).
  void add_generalized_force(double t, ConstVectorRef q, double s, VectorRef f) const {
    do_add_generalized_force(t, q, s, f);
  }
  /// K += s * d f(t, q)/dq   (n x n); nothing when the force does not depend on q.
  void add_generalized_force_q_jacobian(double t, ConstVectorRef q, double s, MatrixRef K) const {
    if (depends_on_configuration()) do_add_generalized_force_q_jacobian(t, q, s, K);
  }
  virtual bool depends_on_configuration() const = 0;

 protected:
  virtual void do_add_generalized_force(double t, ConstVectorRef q, double s, VectorRef f) const = 0;
  virtual void do_add_generalized_force_q_jacobian(double t, ConstVectorRef q, double s,
                                                   MatrixRef K) const = 0;
};

}  // namespace noether
