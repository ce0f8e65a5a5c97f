#pragma once
/// A viscous force with a constant damping matrix.
#include <noether/engine/dissipation.hpp>

namespace noether {

/// F = -C v on n coordinates with a constant symmetric C (n x n). Positive semi-definite C
/// dissipates; an indefinite or negative C feeds energy in (negative damping), which the engine
/// accepts: the energy balances report the work either way.
class LinearDamper final : public Dissipation {
 public:
  /// Throws std::invalid_argument naming the damper unless C is n x n (n = the blocks' coordinates,
  /// `size`), finite and symmetric.
  LinearDamper(std::string name, std::vector<BlockId> blocks, Index size, const Matrix& C);

  Index local_size() const override { return damping_.rows(); }
  bool has_constant_damping() const override { return true; }

 protected:
  void do_add_damping_matrix(ConstVectorRef, double s, MatrixRef C) const override { C.noalias() += s * damping_; }
  void do_add_damping_force_q_jacobian(ConstVectorRef, ConstVectorRef, double, MatrixRef) const override {}

 private:
  Matrix damping_;
};

}  // namespace noether
