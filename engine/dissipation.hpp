#pragma once
/// Viscous dissipation elements F = -C(q) v.
#include <noether/engine/element.hpp>

namespace noether {

/// Viscous force F = -C(q) v on n = local_size() coordinates; C(q) is symmetric. Positive
/// semi-definite C dissipates (the power v.C(q)v is never negative); the engine also accepts an
/// indefinite C (negative damping, ConstantDamping in joints/viscous_damper.hpp), whose power it reports the same way.
class Dissipation : public Element {
 public:
  using Element::Element;

  virtual bool has_constant_damping() const = 0;

  /// f += s * C(q) v   (n).
  void add_damping_force(ConstVectorRef q, ConstVectorRef v, double s, VectorRef f) const;
  /// C += s * C(q)   (n x n).
  void add_damping_matrix(ConstVectorRef q, double s, MatrixRef C) const { do_add_damping_matrix(q, s, C); }
  /// K += s * d(C(q) v)/dq, i.e. K(:, i) += s * C_,i v   (n x n); nothing for constant C.
  void add_damping_force_q_jacobian(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef K) const {
    if (!has_constant_damping()) do_add_damping_force_q_jacobian(q, v, s, K);
  }

 protected:
  virtual void do_add_damping_matrix(ConstVectorRef q, double s, MatrixRef C) const = 0;
  virtual void do_add_damping_force_q_jacobian(ConstVectorRef q, ConstVectorRef v, double s,
                                               MatrixRef K) const = 0;
};

}  // namespace noether
