#include "block_tridiagonal_floor.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/LU>
#include <Eigen/StdVector>

namespace noether::bench {
namespace {

template <int B>
class FloorOfSize final : public BlockTridiagonalFloor {
 public:
  using Block = Eigen::Matrix<double, B, B>;
  using Column = Eigen::Matrix<double, B, 1>;

  FloorOfSize(Index blocks, Index block_size)
      : A_(Block::Random(block_size, block_size)),
        B_(Block::Random(block_size, block_size)),
        C_(Block::Random(block_size, block_size)),
        r_(Column::Random(block_size)),
        factors_(static_cast<std::size_t>(blocks)),
        z_(static_cast<std::size_t>(blocks), Column::Zero(block_size)) {
    A_.diagonal().array() += 3.0 * static_cast<double>(block_size);
  }

  double factorize_and_solve() override {
    const std::size_t n = factors_.size();
    factors_[0].compute(A_);
    z_[0] = factors_[0].solve(r_);
    for (std::size_t i = 1; i < n; ++i) {
      schur_ = A_;
      schur_.noalias() -= C_ * factors_[i - 1].solve(B_);
      factors_[i].compute(schur_);
      z_[i] = factors_[i].solve(r_ - C_ * z_[i - 1]);
    }
    double largest = z_[n - 1].cwiseAbs().maxCoeff();
    for (std::size_t i = n - 1; i-- > 0;) {
      z_[i] -= factors_[i].solve(B_ * z_[i + 1]);  // z_i becomes x_i
      largest = std::max(largest, z_[i].cwiseAbs().maxCoeff());
    }
    return largest;
  }

 private:
  Block A_, B_, C_, schur_;
  Column r_;
  std::vector<Eigen::PartialPivLU<Block>, Eigen::aligned_allocator<Eigen::PartialPivLU<Block>>> factors_;
  std::vector<Column, Eigen::aligned_allocator<Column>> z_;
};

}  // namespace

std::unique_ptr<BlockTridiagonalFloor> make_block_tridiagonal_floor(Index blocks, Index block_size) {
  if (blocks < 1 || block_size < 1)
    throw std::invalid_argument("block-tridiagonal floor: blocks and block size must be >= 1, got " +
                                std::to_string(blocks) + " and " + std::to_string(block_size));
  std::srand(1);  // Eigen's Random draws from std::rand: the same synthetic blocks every run
  switch (block_size) {
    case 21: return std::make_unique<FloorOfSize<21>>(blocks, block_size);
    case 23: return std::make_unique<FloorOfSize<23>>(blocks, block_size);
    default: return std::make_unique<FloorOfSize<Eigen::Dynamic>>(blocks, block_size);
  }
}

}  // namespace noether::bench
