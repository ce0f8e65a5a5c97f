#include <stdexcept>
#include <string>
#include <vector>

#include <noether/engine/callback_result.hpp>
#include <noether/engine/quote.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/viscous_damper.hpp>

namespace noether {
namespace {

constexpr std::string_view kConstraint = "constraint", kPotential = "potential";

/// V = V(0) + DV(0).q + 1/2 q^T D^2V q (Hessian only when quadratic).
QuadraticForm potential_form(const std::string& name, Index n, const PotentialFunction& f) {
  const Vector zero = Vector::Zero(n);
  const Vector gradient = checked_result({kPotential, name, "PotentialFunction::gradient"}, f.gradient(zero), n);
  std::vector<Matrix> hessian;
  if (f.nonlinearity == Nonlinearity::quadratic)
    hessian.push_back(checked_result({kPotential, name, "PotentialFunction::hessian"}, f.hessian(zero), n, n));
  return QuadraticForm("potential " + quote(name), Vector::Constant(1, f.energy(zero)), gradient.transpose(), hessian);
}

/// g = g(0) + G(0) q + 1/2 [q^T H_k q]_k (Hessians only when quadratic).
QuadraticForm constraint_form(const std::string& name, Index n, const ConstraintFunction& f) {
  const Index m = f.num_equations;
  const Vector zero = Vector::Zero(n);
  const Vector value = checked_result({kConstraint, name, "ConstraintFunction::value"}, f.value(zero), m);
  const Matrix jacobian = checked_result({kConstraint, name, "ConstraintFunction::jacobian"}, f.jacobian(zero), m, n);
  std::vector<Matrix> hessians;
  for (Index k = 0; f.nonlinearity == Nonlinearity::quadratic && k < m; ++k)
    hessians.push_back(checked_result({kConstraint, name, "ConstraintFunction::hessian_contraction"},
                                      f.hessian_contraction(zero, Vector::Unit(m, k)), n, n));
  return QuadraticForm("constraint " + quote(name), value, jacobian, hessians);
}

}  // namespace

FunctionPotential::FunctionPotential(std::string name, std::vector<BlockId> blocks, Index size, PotentialFunction function)
    : Potential(std::move(name), std::move(blocks)), size_(size), function_(std::move(function)) {
  if (!function_.energy || !function_.gradient || !function_.hessian)
    throw std::invalid_argument("potential " + quote(this->name()) + ": give V, its gradient and its Hessian");
  if (is_at_most_quadratic(function_.nonlinearity))
    form_.emplace(potential_form(this->name(), size_, function_));
}

FunctionConstraint::FunctionConstraint(std::string name, std::vector<BlockId> blocks, Index size,
                                       ConstraintFunction function)
    : Constraint(std::move(name), std::move(blocks)), size_(size), function_(std::move(function)) {
  if (function_.num_equations <= 0)
    throw std::invalid_argument("constraint " + quote(this->name()) + ": num_equations must be positive");
  if (!function_.value || !function_.jacobian)
    throw std::invalid_argument("constraint " + quote(this->name()) + ": give g and its Jacobian");
  if (function_.nonlinearity != Nonlinearity::linear && !function_.hessian_contraction)
    throw std::invalid_argument("constraint " + quote(this->name()) + ": a nonlinear constraint needs its Hessian contraction");
  if (is_at_most_quadratic(function_.nonlinearity))
    form_.emplace(constraint_form(this->name(), size_, function_));
}

void FunctionPotential::do_add_gradient(ConstVectorRef q, double s, VectorRef g) const {
  g.noalias() += s * checked_result({kPotential, name(), "PotentialFunction::gradient"}, function_.gradient(q), size_);
}

void FunctionPotential::do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const {
  K.noalias() +=
      s * checked_result({kPotential, name(), "PotentialFunction::hessian"}, function_.hessian(q), size_, size_);
}

void FunctionConstraint::do_calc_value(ConstVectorRef q, VectorRef g) const {
  g = checked_result({kConstraint, name(), "ConstraintFunction::value"}, function_.value(q), function_.num_equations);
}

void FunctionConstraint::do_calc_jacobian(ConstVectorRef q, MatrixRef G) const {
  G = checked_result({kConstraint, name(), "ConstraintFunction::jacobian"}, function_.jacobian(q),
                     function_.num_equations, size_);
}

void FunctionConstraint::do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s,
                                                    MatrixRef K) const {
  K.noalias() += s * checked_result({kConstraint, name(), "ConstraintFunction::hessian_contraction"},
                                    function_.hessian_contraction(q, lambda), size_, size_);
}

ConstantDamping::ConstantDamping(std::string name, std::vector<BlockId> blocks, Matrix damping)
    : Dissipation(std::move(name), std::move(blocks)), damping_(std::move(damping)) {
  if (damping_.rows() != damping_.cols() || damping_.rows() == 0)
    throw std::invalid_argument("damping " + quote(this->name()) + ": the damping matrix must be square and non-empty");
  if (!damping_.allFinite() || (damping_ - damping_.transpose()).cwiseAbs().maxCoeff() > 1e-14 * (1.0 + damping_.cwiseAbs().maxCoeff()))
    throw std::invalid_argument("damping " + quote(this->name()) + ": the damping matrix must be finite and symmetric");
}

}  // namespace noether
