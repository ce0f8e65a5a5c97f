#pragma once
/// Generic viscous dissipation F = -C v with a constant damping matrix.
#include <noether/engine/dissipation.hpp>

namespace noether {

/// F = -C v, C constant and symmetric (n x n). Positive semi-definite C dissipates; an indefinite
/// or negative C (negative damping, the damped-oscillator scenario with zeta < 0) feeds energy in.
class ConstantDamping final : public Dissipation {
 public:
  ConstantDamping(std::string name, std::vector<BlockId> blocks, Matrix damping);

  Index local_size() const override { return static_cast<Index>(damping_.rows()); }
  bool has_constant_damping() const override { return true; }

 protected:
  void do_add_damping_matrix(ConstVectorRef, double s, MatrixRef C) const override { C.noalias() += s * damping_; }
  void do_add_damping_force_q_jacobian(ConstVectorRef, ConstVectorRef, double, MatrixRef) const override {}

 private:
  Matrix damping_;
};

}  // namespace noether
