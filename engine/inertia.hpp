#pragma once
/// Inertia elements: the kinetic energy of the coordinates of their blocks.
#include <noether/engine/element.hpp>

namespace noether {

/// Kinetic energy T(q, v) = 1/2 v . M(q) v over n = local_size() coordinates.
/// M is symmetric positive semi-definite and may be singular (Livens-based steppers accept that;
/// steppers that need M^{-1} check invertibility and refuse). z = (q, v) denotes the stacked
/// 2n-vector on which the discrete gradient of T is taken.
class Inertia : public Element {
 public:
  using Element::Element;

  /// True when M does not depend on q: T is then quadratic in v alone.
  virtual bool has_constant_mass() const = 0;

  /// M += s * M(q)   (n x n).
  void add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const { do_add_mass_matrix(q, s, M); }
  /// T(q, v).
  double kinetic_energy(ConstVectorRef q, ConstVectorRef v) const;
  /// grad_q += s * dT/dq = s * 1/2 v.(dM/dq_i) v,   grad_v += s * dT/dv = s * M(q) v   (n each).
  void add_kinetic_gradient(ConstVectorRef q, ConstVectorRef v, double s, VectorRef grad_q,
                            VectorRef grad_v) const;
  /// H += s * D^2 T(z)   (2n x 2n, ordered (q, v)), with M_,i = dM/dq_i:
  ///   H_qq(i, j) = 1/2 v.M_,ij v,   H_qv(i, j) = (M_,i v)_j,   H_vq = H_qv^T,   H_vv = M(q).
  void add_kinetic_hessian(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H) const;

 protected:
  virtual void do_add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const = 0;
  /// grad_q += s * 1/2 v.(dM/dq_i) v; constant-mass elements leave it untouched.
  virtual void do_add_kinetic_gradient_q(ConstVectorRef q, ConstVectorRef v, double s,
                                         VectorRef grad_q) const = 0;
  /// H_qq(i, j) += s * 1/2 v.M_,ij v and H_qv(i, j) += s * (M_,i v)_j   (n x n each);
  /// constant-mass elements leave both untouched.
  virtual void do_add_kinetic_hessian_q(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H_qq,
                                        MatrixRef H_qv) const = 0;
};

}  // namespace noether
