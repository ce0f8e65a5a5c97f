#pragma once
/// Generic inertia elements: a mass matrix given as a constant or as a function of q.
#include <functional>

#include <noether/engine/inertia.hpp>

namespace noether {

/// T = 1/2 v.M v with a constant symmetric positive semi-definite M (n x n; may be singular).
class ConstantInertia final : public ConstantMassInertia {
 public:
  /// Throws std::invalid_argument naming the element if M is not square, not finite, not
  /// symmetric, not positive semidefinite or has a subnormal entry (ConstantMassInertia); whether it
  /// matches the blocks' size is checked when it is added to a System.
  ConstantInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass);
};

/// T = 1/2 v.M(q) v with M given as a function of q with its first and second derivatives
/// (the second enters only the Newton tangent of the configuration-dependent discrete gradient).
struct MassFunction {
  std::function<Matrix(ConstVectorRef q)> mass;                               ///< M(q), n x n
  std::function<Matrix(ConstVectorRef q, Index i)> mass_derivative;           ///< dM/dq_i
  std::function<Matrix(ConstVectorRef q, Index i, Index j)> mass_second_derivative;  ///< d^2M/dq_i dq_j
};

/// Every evaluation checks the size of what the functions return (n x n each) and throws
/// std::invalid_argument naming the inertia, the function and both sizes. M(q) must be positive
/// semidefinite; every stepper checks it at the initial configuration (Stepper::initialize).
class ConfigurationInertia final : public Inertia {
 public:
  /// Throws std::invalid_argument naming the inertia for size <= 0 or a missing function.
  ConfigurationInertia(std::string name, std::vector<BlockId> blocks, Index size, MassFunction mass);

  Index local_size() const override { return size_; }

 protected:
  void do_add_mass_matrix(ConstVectorRef q, double s, MatrixRef M) const override;
  void do_add_kinetic_gradient_q(ConstVectorRef q, ConstVectorRef v, double s, VectorRef grad_q) const override;
  void do_add_kinetic_hessian_q(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H_qq,
                                MatrixRef H_qv) const override;

 private:
  /// dM/dq_i, checked to be n x n.
  Matrix mass_derivative(ConstVectorRef q, Index i) const;

  Index size_;
  MassFunction mass_;
};

}  // namespace noether
