#pragma once
/// The dense block-tridiagonal floor of one Newton iteration on a chain.
#include <memory>

#include <noether/engine/types.hpp>

namespace noether::bench {

/// Numbering the unknowns of a chain body by body (body i: its coordinates, its internal
/// constraint multipliers and the multipliers of the joint to its predecessor), the Newton
/// matrix is block tridiagonal with blocks of size b = unknowns / bodies (21 for the spherical
/// 3D chain: 12 + 6 + 3). The floor is one linear solve of such a system of n blocks, every block
/// dense, by block LU without fill outside the three diagonals (block Thomas algorithm):
///
///   D_0 = A_0,  D_i = A_i - C_i D_{i-1}^{-1} B_{i-1}      (dense LU with partial pivoting of each D_i)
///   z_i = D_i^{-1} (r_i - C_i z_{i-1}),   x_{n-1} = z_{n-1},   x_i = z_i - D_i^{-1} B_i x_{i+1}
///
/// with A_i, B_i, C_i the diagonal, upper and lower blocks: (2/3 + 2 + 2) b^3 flops per block for
/// the factorization, 8 b^2 for the solve. Any sparse direct method on the chain does at most this
/// elimination; it can only gain from the zeros inside the blocks. The values are synthetic
/// (random, diagonally dominant A_i, equal for every block): the cost does not depend on them.
class BlockTridiagonalFloor {
 public:
  virtual ~BlockTridiagonalFloor() = default;
  /// Factorizes and solves for one right-hand side; returns max|x| (so no work is optimized away).
  virtual double factorize_and_solve() = 0;
};

/// Fixed-size Eigen blocks for b = 21 and 23 (spherical and revolute 3D chains), dynamic otherwise.
std::unique_ptr<BlockTridiagonalFloor> make_block_tridiagonal_floor(Index blocks, Index block_size);

}  // namespace noether::bench
