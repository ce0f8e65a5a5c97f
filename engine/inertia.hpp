#pragma once
/// Inertia elements: the kinetic energy of the coordinates of their blocks.
#include <noether/engine/element.hpp>
#include <noether/engine/exact_form.hpp>

namespace noether {

/// Kinetic energy T(q, v) = 1/2 v . M(q) v over n = local_size() coordinates.
/// M is symmetric positive semi-definite and may be singular (Livens-based steppers accept that;
/// steppers that need M^{-1} check invertibility and refuse). z = (q, v) denotes the stacked
/// 2n-vector on which the discrete gradient of T is taken.
///
/// An inertia whose M does not depend on q states M once, at construction (constant_mass());
/// ConstantMassInertia evaluates from it. The structure analysis and the steppers read it.
class Inertia : public Element {
 public:
  using Element::Element;

  /// M (n x n) when it does not depend on q, else nullptr. It lives as long as the element.
  const SparseEntries* constant_mass() const { return do_constant_mass(); }
  /// True when M does not depend on q: T is then quadratic in v alone.
  bool has_constant_mass() const { return constant_mass() != nullptr; }

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
  virtual const SparseEntries* do_constant_mass() const { return nullptr; }
  virtual void do_add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const = 0;
  /// grad_q += s * 1/2 v.(dM/dq_i) v; constant-mass elements leave it untouched.
  virtual void do_add_kinetic_gradient_q(ConstVectorRef q, ConstVectorRef v, double s,
                                         VectorRef grad_q) const = 0;
  /// H_qq(i, j) += s * 1/2 v.M_,ij v and H_qv(i, j) += s * (M_,i v)_j   (n x n each);
  /// constant-mass elements leave both untouched.
  virtual void do_add_kinetic_hessian_q(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H_qq,
                                        MatrixRef H_qv) const = 0;
};

/// An inertia with a constant mass matrix M, given at construction.
class ConstantMassInertia : public Inertia {
 public:
  /// mass: n x n, n = local_size().
  ConstantMassInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass);

  Index local_size() const final { return local_size_; }

 protected:
  const SparseEntries* do_constant_mass() const final { return &mass_; }
  void do_add_mass_matrix(ConstVectorRef, double s, MatrixRef M) const final { mass_.add_to(s, M); }
  void do_add_kinetic_gradient_q(ConstVectorRef, ConstVectorRef, double, VectorRef) const final {}
  void do_add_kinetic_hessian_q(ConstVectorRef, ConstVectorRef, double, MatrixRef, MatrixRef) const final {}

 private:
  Index local_size_;
  ConstantMatrix mass_;
};

}  // namespace noether
