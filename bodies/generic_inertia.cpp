#include <noether/bodies/generic_inertia.hpp>

#include <stdexcept>

#include <noether/engine/callback_result.hpp>
#include <noether/engine/quote.hpp>

namespace noether {

ConstantInertia::ConstantInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass)
    : ConstantMassInertia(std::move(name), std::move(blocks), mass) {}

ConfigurationInertia::ConfigurationInertia(std::string name, std::vector<BlockId> blocks, Index size, MassFunction mass)
    : Inertia(std::move(name), std::move(blocks)), size_(size), mass_(std::move(mass)) {
  if (size_ <= 0) throw std::invalid_argument("inertia " + quote(this->name()) + ": size must be positive");
  if (!mass_.mass || !mass_.mass_derivative || !mass_.mass_second_derivative)
    throw std::invalid_argument("inertia " + quote(this->name()) +
                                ": give M(q), dM/dq_i and d^2M/dq_i dq_j (all three are needed)");
}

namespace {

constexpr std::string_view kInertia = "inertia";

}  // namespace

void ConfigurationInertia::do_add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const {
  M.noalias() += s * checked_result({kInertia, name(), "MassFunction::mass"}, mass_.mass(q), size_, size_);
}

Matrix ConfigurationInertia::mass_derivative(ConstVectorRef q, Index i) const {
  return checked_result({kInertia, name(), "MassFunction::mass_derivative"}, mass_.mass_derivative(q, i), size_, size_);
}

void ConfigurationInertia::do_add_kinetic_gradient_q(ConstVectorRef q, ConstVectorRef v, double s,
                                                     VectorRef grad_q) const {
  for (Index i = 0; i < size_; ++i) grad_q(i) += 0.5 * s * v.dot(mass_derivative(q, i) * v);
}

void ConfigurationInertia::do_add_kinetic_hessian_q(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H_qq,
                                                    MatrixRef H_qv) const {
  const CallbackSite second{kInertia, name(), "MassFunction::mass_second_derivative"};
  for (Index i = 0; i < size_; ++i) {
    H_qv.row(i) += s * (mass_derivative(q, i) * v).transpose();
    for (Index j = 0; j < size_; ++j)
      H_qq(i, j) += 0.5 * s * v.dot(checked_result(second, mass_.mass_second_derivative(q, i, j), size_, size_) * v);
  }
}

}  // namespace noether
