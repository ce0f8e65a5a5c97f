#pragma once
/// Generic inertia elements: a mass matrix given as a constant or as a function of q.
#include <functional>

#include <noether/engine/inertia.hpp>

namespace noether {

/// T = 1/2 v.M v with a constant symmetric positive semi-definite M (n x n; may be singular).
class ConstantInertia final : public ConstantMassInertia {
 public:
  /// Throws std::invalid_argument if M is not square, does not match the blocks' size (checked
  /// when added to a System), is not symmetric, or has a negative or non-finite entry on the diagonal.
  ConstantInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass);
};

/// T = 1/2 v.M(q) v with M given as a function of q with its first and second derivatives
/// (the second enters only the Newton tangent of the configuration-dependent discrete gradient).
struct MassFunction {
  std::function<Matrix(ConstVectorRef q)> mass;                               ///< M(q), n x n
  std::function<Matrix(ConstVectorRef q, Index i)> mass_derivative;           ///< dM/dq_i
  std::function<Matrix(ConstVectorRef q, Index i, Index j)> mass_second_derivative;  ///< d^2M/dq_i dq_j
};

class ConfigurationInertia final : public Inertia {
 public:
  ConfigurationInertia(std::string name, std::vector<BlockId> blocks, Index size, MassFunction mass);

  Index local_size() const override { return size_; }

 protected:
  void do_add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const override;
  void do_add_kinetic_gradient_q(ConstVectorRef q, ConstVectorRef v, double s, VectorRef grad_q) const override;
  void do_add_kinetic_hessian_q(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H_qq,
                                MatrixRef H_qv) const override;

 private:
  Index size_;
  MassFunction mass_;
};

}  // namespace noether
