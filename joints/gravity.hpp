#pragma once
/// Uniform gravity on one body: a linear potential.
#include <noether/bodies/kinematics.hpp>
#include <noether/engine/potential.hpp>

namespace noether {

/// V(q) = -m g . x_c(q),  x_c = P(c) q  the centre of mass (c in body coordinates; c = 0 for a point
/// mass), g the gravitational acceleration (world frame). V is linear in q: DV = -m P(c)^T g
/// (n = the body's block size), D^2 V = 0, and the midpoint gradient is an exact discrete gradient.
/// Its exact form (quadratic_form()): c = 0, l = -weight, no Hessian.
class Gravity final : public Potential {
 public:
  /// Throws std::invalid_argument for a negative or non-finite mass, or vectors of the wrong size.
  Gravity(std::string name, const BodyRef& body, double mass, const Vector& centre_of_mass, const Vector& gravity);

  Index local_size() const override { return static_cast<Index>(weight_.size()); }

 protected:
  const QuadraticFormView* do_quadratic_form() const override { return &form_; }
  double do_energy(ConstVectorRef q) const override { return -weight_.dot(q); }
  void do_add_gradient(ConstVectorRef, double s, VectorRef g) const override { g.noalias() -= s * weight_; }
  void do_add_hessian(ConstVectorRef, double, MatrixRef) const override {}

 private:
  /// m P(c)^T g, the generalized weight (V = -weight.q, n), after the constructor's checks.
  static Vector checked_weight(const std::string& name, const BodyRef& body, double mass,
                               const Vector& centre_of_mass, const Vector& gravity);

  Vector weight_;
  QuadraticForm form_;
};

}  // namespace noether
