#pragma once
/// A holonomic constraint given by user functions: g(q), its Jacobian and Hessian contraction.
#include <functional>

#include <noether/engine/constraint.hpp>

namespace noether {

struct ConstraintFunction {
  Index num_equations = 1;
  std::function<Vector(ConstVectorRef q)> value;     ///< g(q), m
  std::function<Matrix(ConstVectorRef q)> jacobian;  ///< G(q), m x n
  /// sum_k lambda_k D^2 g_k(q), n x n; may be empty for a linear constraint.
  std::function<Matrix(ConstVectorRef q, ConstVectorRef lambda)> hessian_contraction;
  Nonlinearity nonlinearity = Nonlinearity::general;
};

class FunctionConstraint final : public Constraint {
 public:
  FunctionConstraint(std::string name, std::vector<BlockId> blocks, Index size, ConstraintFunction function);

  Index local_size() const override { return size_; }
  Index num_equations() const override { return function_.num_equations; }
  Nonlinearity nonlinearity() const override { return function_.nonlinearity; }

 protected:
  void do_calc_value(ConstVectorRef q, VectorRef g) const override { g = function_.value(q); }
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const override { G = function_.jacobian(q); }
  void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const override {
    K.noalias() += s * function_.hessian_contraction(q, lambda);
  }

 private:
  Index size_;
  ConstraintFunction function_;
};

}  // namespace noether
