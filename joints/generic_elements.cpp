#include <stdexcept>
#include <string>
#include <vector>

#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/viscous_damper.hpp>

namespace noether {
namespace {

/// Throws naming `owner` unless `value` is rows x cols.
void require_shape(const std::string& owner, const char* what, const Matrix& value, Index rows, Index cols) {
  if (value.rows() != rows || value.cols() != cols)
    throw std::invalid_argument(owner + ": " + what + " at q = 0 is " + std::to_string(value.rows()) + " x " +
                                std::to_string(value.cols()) + ", expected " + std::to_string(rows) + " x " +
                                std::to_string(cols));
}

/// V = V(0) + DV(0).q + 1/2 q^T D^2V q (Hessian only when quadratic).
QuadraticForm potential_form(const std::string& owner, Index n, const PotentialFunction& f) {
  const Vector zero = Vector::Zero(n);
  const Vector gradient = f.gradient(zero);
  require_shape(owner, "the gradient", gradient, n, 1);
  std::vector<Matrix> hessian;
  if (f.nonlinearity == Nonlinearity::quadratic) {
    hessian.push_back(f.hessian(zero));
    require_shape(owner, "the Hessian", hessian.back(), n, n);
  }
  return QuadraticForm(owner, Vector::Constant(1, f.energy(zero)), gradient.transpose(), hessian);
}

/// g = g(0) + G(0) q + 1/2 [q^T H_k q]_k (Hessians only when quadratic).
QuadraticForm constraint_form(const std::string& owner, Index n, const ConstraintFunction& f) {
  const Index m = f.num_equations;
  const Vector zero = Vector::Zero(n);
  const Vector value = f.value(zero);
  const Matrix jacobian = f.jacobian(zero);
  require_shape(owner, "g", value, m, 1);
  require_shape(owner, "the Jacobian", jacobian, m, n);
  std::vector<Matrix> hessians;
  for (Index k = 0; f.nonlinearity == Nonlinearity::quadratic && k < m; ++k) {
    hessians.push_back(f.hessian_contraction(zero, Vector::Unit(m, k)));
    require_shape(owner, "the Hessian contraction", hessians.back(), n, n);
  }
  return QuadraticForm(owner, value, jacobian, hessians);
}

}  // namespace

FunctionPotential::FunctionPotential(std::string name, std::vector<BlockId> blocks, Index size, PotentialFunction function)
    : Potential(std::move(name), std::move(blocks)), size_(size), function_(std::move(function)) {
  if (!function_.energy || !function_.gradient || !function_.hessian)
    throw std::invalid_argument("potential '" + this->name() + "': give V, its gradient and its Hessian");
  if (is_at_most_quadratic(function_.nonlinearity))
    form_.emplace(potential_form("potential '" + this->name() + "'", size_, function_));
}

FunctionConstraint::FunctionConstraint(std::string name, std::vector<BlockId> blocks, Index size,
                                       ConstraintFunction function)
    : Constraint(std::move(name), std::move(blocks)), size_(size), function_(std::move(function)) {
  if (function_.num_equations <= 0)
    throw std::invalid_argument("constraint '" + this->name() + "': num_equations must be positive");
  if (!function_.value || !function_.jacobian)
    throw std::invalid_argument("constraint '" + this->name() + "': give g and its Jacobian");
  if (function_.nonlinearity != Nonlinearity::linear && !function_.hessian_contraction)
    throw std::invalid_argument("constraint '" + this->name() + "': a nonlinear constraint needs its Hessian contraction");
  if (is_at_most_quadratic(function_.nonlinearity))
    form_.emplace(constraint_form("constraint '" + this->name() + "'", size_, function_));
}

ConstantDamping::ConstantDamping(std::string name, std::vector<BlockId> blocks, Matrix damping)
    : Dissipation(std::move(name), std::move(blocks)), damping_(std::move(damping)) {
  if (damping_.rows() != damping_.cols() || damping_.rows() == 0)
    throw std::invalid_argument("damping '" + this->name() + "': the damping matrix must be square and non-empty");
  if (!damping_.allFinite() || (damping_ - damping_.transpose()).cwiseAbs().maxCoeff() > 1e-14 * (1.0 + damping_.cwiseAbs().maxCoeff()))
    throw std::invalid_argument("damping '" + this->name() + "': the damping matrix must be finite and symmetric");
}

}  // namespace noether
