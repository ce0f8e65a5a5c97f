#include <stdexcept>

#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/viscous_damper.hpp>

namespace noether {

FunctionPotential::FunctionPotential(std::string name, std::vector<BlockId> blocks, Index size, PotentialFunction function)
    : Potential(std::move(name), std::move(blocks)), size_(size), function_(std::move(function)) {
  if (!function_.energy || !function_.gradient || !function_.hessian)
    throw std::invalid_argument("potential '" + this->name() + "': give V, its gradient and its Hessian");
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
}

ConstantDamping::ConstantDamping(std::string name, std::vector<BlockId> blocks, Matrix damping)
    : Dissipation(std::move(name), std::move(blocks)), damping_(std::move(damping)) {
  if (damping_.rows() != damping_.cols() || damping_.rows() == 0)
    throw std::invalid_argument("damping '" + this->name() + "': the damping matrix must be square and non-empty");
  if (!damping_.allFinite() || (damping_ - damping_.transpose()).cwiseAbs().maxCoeff() > 1e-14 * (1.0 + damping_.cwiseAbs().maxCoeff()))
    throw std::invalid_argument("damping '" + this->name() + "': the damping matrix must be finite and symmetric");
}

}  // namespace noether
