#pragma once
/// A potential given by user functions: V(q), its gradient and its Hessian.
#include <functional>

#include <noether/engine/potential.hpp>

namespace noether {

struct PotentialFunction {
  std::function<double(ConstVectorRef q)> energy;        ///< V(q)
  std::function<Vector(ConstVectorRef q)> gradient;      ///< DV(q), n
  std::function<Matrix(ConstVectorRef q)> hessian;       ///< D^2 V(q), n x n
  Nonlinearity nonlinearity = Nonlinearity::general;     ///< quadratic: exact midpoint gradients
};

class FunctionPotential final : public Potential {
 public:
  FunctionPotential(std::string name, std::vector<BlockId> blocks, Index size, PotentialFunction function);

  Index local_size() const override { return size_; }
  Nonlinearity nonlinearity() const override { return function_.nonlinearity; }

 protected:
  double do_energy(ConstVectorRef q) const override { return function_.energy(q); }
  void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const override { g.noalias() += s * function_.gradient(q); }
  void do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const override { K.noalias() += s * function_.hessian(q); }

 private:
  Index size_;
  PotentialFunction function_;
};

}  // namespace noether
