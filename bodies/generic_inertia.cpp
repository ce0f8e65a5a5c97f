#include <noether/bodies/generic_inertia.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {

namespace {

/// M after the checks ConstantInertia documents.
const Matrix& checked_mass(const std::string& name, const Matrix& mass) {
  const std::string who = "inertia '" + name + "': ";
  if (mass.rows() != mass.cols() || mass.rows() == 0)
    throw std::invalid_argument(who + "the mass matrix must be square and non-empty, got " +
                                std::to_string(mass.rows()) + " x " + std::to_string(mass.cols()));
  if (!mass.allFinite()) throw std::invalid_argument(who + "the mass matrix has a non-finite entry");
  if ((mass - mass.transpose()).cwiseAbs().maxCoeff() > 1e-14 * (1.0 + mass.cwiseAbs().maxCoeff()))
    throw std::invalid_argument(who + "the mass matrix must be symmetric");
  for (Index i = 0; i < mass.rows(); ++i)
    if (mass(i, i) < 0.0)
      throw std::invalid_argument(who + "diagonal entry " + std::to_string(i) + " is " + format_number(mass(i, i)) +
                                  "; a mass matrix is positive semi-definite");
  return mass;
}

}  // namespace

ConstantInertia::ConstantInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass)
    : ConstantMassInertia(name, std::move(blocks), checked_mass(name, mass)) {}

ConfigurationInertia::ConfigurationInertia(std::string name, std::vector<BlockId> blocks, Index size, MassFunction mass)
    : Inertia(std::move(name), std::move(blocks)), size_(size), mass_(std::move(mass)) {
  if (size_ <= 0) throw std::invalid_argument("inertia '" + this->name() + "': size must be positive");
  if (!mass_.mass || !mass_.mass_derivative || !mass_.mass_second_derivative)
    throw std::invalid_argument("inertia '" + this->name() +
                                "': give M(q), dM/dq_i and d^2M/dq_i dq_j (all three are needed)");
}

void ConfigurationInertia::do_add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const {
  M.noalias() += s * mass_.mass(q);
}

void ConfigurationInertia::do_add_kinetic_gradient_q(ConstVectorRef q, ConstVectorRef v, double s,
                                                     VectorRef grad_q) const {
  for (Index i = 0; i < size_; ++i) grad_q(i) += 0.5 * s * v.dot(mass_.mass_derivative(q, i) * v);
}

void ConfigurationInertia::do_add_kinetic_hessian_q(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H_qq,
                                                    MatrixRef H_qv) const {
  for (Index i = 0; i < size_; ++i) {
    H_qv.row(i) += s * (mass_.mass_derivative(q, i) * v).transpose();
    for (Index j = 0; j < size_; ++j) H_qq(i, j) += 0.5 * s * v.dot(mass_.mass_second_derivative(q, i, j) * v);
  }
}

}  // namespace noether
