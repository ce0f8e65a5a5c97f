#pragma once
/// V = 1/2 |q|^2 over the coordinates of `blocks`: a potential whose value is easy to check, and
/// an element that joins those blocks (the element graph of engine/partition.hpp).
#include <memory>
#include <string>
#include <vector>

#include <noether/joints/function_potential.hpp>

namespace noether::testing {

inline std::shared_ptr<const Potential> half_square(const std::string& name, std::vector<BlockId> blocks, Index size) {
  PotentialFunction f;
  f.nonlinearity = Nonlinearity::quadratic;
  f.energy = [](ConstVectorRef q) { return 0.5 * q.squaredNorm(); };
  f.gradient = [](ConstVectorRef q) { return Vector(q); };
  f.hessian = [size](ConstVectorRef) { return Matrix(Matrix::Identity(size, size)); };
  return std::make_shared<FunctionPotential>(name, std::move(blocks), size, f);
}

}  // namespace noether::testing
