#pragma once
/// Inertia elements: the kinetic energy of the coordinates of their blocks.
#include <optional>
#include <string>
#include <string_view>

#include <noether/engine/element.hpp>
#include <noether/engine/exact_form.hpp>
#include <noether/engine/rigid_motion.hpp>

namespace noether {

/// Where an inertia's kinetic energy 1/2 v.M v is positive (Inertia::mass_positivity()).
enum class MassPositivity {
  /// M is positive semidefinite: the inertia of a distribution of mass. Every inertia but the next.
  everywhere,
  /// M may be indefinite, but v.M v > 0 for every velocity the constraints of the element's body
  /// admit: a director body given a model inertia tensor that no distribution of mass has (the
  /// free body of Hairer, Lubich and Wanner, principal moments (2, 1, 2/3); bodies/body_properties.hpp).
  admitted_motions,
};

/// Kinetic energy T(q, v) = 1/2 v . M(q) v over n = local_size() coordinates.
/// M is symmetric and positive semidefinite (MassPositivity::everywhere) or positive on the motions
/// its body's constraints admit (admitted_motions); it may be singular (Livens-based steppers accept
/// that; steppers that need M^{-1} check invertibility and refuse). An indefinite M is a modelling
/// error: an element with a constant M refuses one when it is built (ConstantMassInertia), every
/// stepper refuses a configuration-dependent one at the initial configuration. z = (q, v) denotes
/// the stacked 2n-vector on which the discrete gradient of T is taken.
///
/// An inertia whose M does not depend on q states M once, at construction (constant_mass());
/// ConstantMassInertia evaluates from it. The structure analysis and the steppers read it.
///
/// An inertia whose coordinates are points and directions of space (a body) states how rigid
/// motions move them (rigid_motion_layout()); its momentum map, L and J, follows
/// (engine/rigid_motion.hpp). One that cannot say (a generic mass matrix) has no momenta.
class Inertia : public Element {
 public:
  using Element::Element;

  /// everywhere unless the element says otherwise (see MassPositivity).
  MassPositivity mass_positivity() const { return do_mass_positivity(); }

  /// How rigid motions of the world move the element's coordinates, or nullptr when it cannot
  /// say. It lives as long as the element.
  const RigidMotionLayout* rigid_motion_layout() const { return do_rigid_motion_layout(); }
  /// The element's linear momentum and angular momentum about `about` at (q, v): the momentum map
  /// of rigid_motion_layout() at p = M(q) v (q, v: n each); std::nullopt when the element cannot say.
  std::optional<Momenta> momenta(ConstVectorRef q, ConstVectorRef v, const Eigen::Vector3d& about) const;

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
  virtual MassPositivity do_mass_positivity() const { return MassPositivity::everywhere; }
  virtual const RigidMotionLayout* do_rigid_motion_layout() const { return nullptr; }
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
  /// mass: n x n, n = local_size(). Throws std::invalid_argument naming the element unless M is
  /// square, non-empty, finite, symmetric (to 1e-14 (1 + max|M|)) and positive semidefinite (no
  /// eigenvalue below -1e-12 max|M|), with no subnormal entry and none of 1e150 or more
  /// (check_entry_magnitudes); M may be singular.
  ConstantMassInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass);

  Index local_size() const final { return local_size_; }

 protected:
  /// For a derived element that checked its mass data itself, in its own structure (a director
  /// body checks its k x k coefficients, not the (k dim)^2 matrix M), and states where M is positive.
  ConstantMassInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass, MassPositivity positivity);

  MassPositivity do_mass_positivity() const final { return positivity_; }
  const SparseEntries* do_constant_mass() const final { return &mass_; }
  void do_add_mass_matrix(ConstVectorRef, double s, MatrixRef M) const final { mass_.add_to(s, M); }
  void do_add_kinetic_gradient_q(ConstVectorRef, ConstVectorRef, double, VectorRef) const final {}
  void do_add_kinetic_hessian_q(ConstVectorRef, ConstVectorRef, double, MatrixRef, MatrixRef) const final {}

 private:
  Index local_size_;
  ConstantMatrix mass_;
  MassPositivity positivity_;
};

/// Throws std::invalid_argument starting with "<kind> '<name>'" ("inertia 'rod'", made only for a
/// refusal) unless M is square, non-empty, finite, symmetric (to 1e-14 (1 + max|M|)) and positive
/// semidefinite (no eigenvalue below -1e-12 max|M|). `what` names the matrix ("the mass matrix",
/// "M(q0)").
void check_positive_semidefinite_mass(std::string_view kind, std::string_view name, const char* what,
                                      const Matrix& mass);

/// Throws std::invalid_argument "<kind> '<name>': <what> entry (i, j) must be a normal number, ..."
/// (subnormal_refusal, engine/format.hpp) for the first subnormal entry of `mass` (column by column),
/// or "... must be below 1e+150 in magnitude, ..." (overflow_refusal) for the first finite entry
/// beyond that: an element's mass data, its masses and moments of inertia, take 0 or a normal
/// number whose products with the state stay finite. For the data given when an element is built,
/// not for M(q) at a configuration (a sine of a tiny angle is no modelling error). The owner's words
/// ("inertia 'rod'") are made only for a refusal: a model checks every body's data.
void check_entry_magnitudes(std::string_view kind, std::string_view name, const char* what, ConstMatrixRef mass);

}  // namespace noether
