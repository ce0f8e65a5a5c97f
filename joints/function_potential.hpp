#pragma once
/// A potential given by user functions: V(q), its gradient and its Hessian.
#include <functional>
#include <optional>

#include <noether/engine/potential.hpp>

namespace noether {

struct PotentialFunction {
  std::function<double(ConstVectorRef q)> energy;        ///< V(q)
  std::function<Vector(ConstVectorRef q)> gradient;      ///< DV(q), n
  std::function<Matrix(ConstVectorRef q)> hessian;       ///< D^2 V(q), n x n
  /// linear or quadratic: V is a polynomial of that degree; the potential then reads its exact
  /// form from the functions once, at construction (V(0), DV(0), D^2 V(0)), and its discrete
  /// gradient is the midpoint gradient.
  Nonlinearity nonlinearity = Nonlinearity::general;
};

class FunctionPotential final : public Potential {
 public:
  /// Throws std::invalid_argument naming the potential for a missing function, or (linear or
  /// quadratic) functions whose values at q = 0 have the wrong size. Every evaluation checks the
  /// size of what the gradient and Hessian return (n, n x n) and throws std::invalid_argument
  /// naming the potential, the function and both sizes.
  FunctionPotential(std::string name, std::vector<BlockId> blocks, Index size, PotentialFunction function);

  Index local_size() const override { return size_; }

 protected:
  const QuadraticFormView* do_quadratic_form() const override { return form_ ? &*form_ : nullptr; }
  double do_energy(ConstVectorRef q) const override { return function_.energy(q); }
  void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const override;
  void do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const override;

 private:
  Index size_;
  PotentialFunction function_;
  std::optional<QuadraticForm> form_;  ///< for a declared linear or quadratic potential
};

}  // namespace noether
