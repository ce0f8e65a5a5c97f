#pragma once
/// A holonomic constraint given by user functions: g(q), its Jacobian and Hessian contraction.
#include <functional>
#include <optional>

#include <noether/engine/constraint.hpp>

namespace noether {

struct ConstraintFunction {
  Index num_equations = 1;
  std::function<Vector(ConstVectorRef q)> value;     ///< g(q), m
  std::function<Matrix(ConstVectorRef q)> jacobian;  ///< G(q), m x n
  /// sum_k lambda_k D^2 g_k(q), n x n; may be empty for a linear constraint.
  std::function<Matrix(ConstVectorRef q, ConstVectorRef lambda)> hessian_contraction;
  /// linear or quadratic: the functions are polynomials of that degree in q; the constraint then
  /// reads its exact form from them once, at construction (c = g(0), L = G(0), H_k from the
  /// Hessian contraction with the k-th unit vector).
  Nonlinearity nonlinearity = Nonlinearity::general;
};

class FunctionConstraint final : public Constraint {
 public:
  /// Throws std::invalid_argument naming the constraint for a missing function, no equations, or
  /// (linear or quadratic) functions whose values at q = 0 have the wrong size. Every evaluation
  /// checks the size of what the functions return (m, m x n, n x n) and throws
  /// std::invalid_argument naming the constraint, the function and both sizes.
  FunctionConstraint(std::string name, std::vector<BlockId> blocks, Index size, ConstraintFunction function);

  Index local_size() const override { return size_; }
  Index num_equations() const override { return function_.num_equations; }

 protected:
  const QuadraticFormView* do_quadratic_form() const override { return form_ ? &*form_ : nullptr; }
  void do_calc_value(ConstVectorRef q, VectorRef g) const override;
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const override;
  void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const override;

 private:
  Index size_;
  ConstraintFunction function_;
  std::optional<QuadraticForm> form_;  ///< for a declared linear or quadratic constraint
};

}  // namespace noether
