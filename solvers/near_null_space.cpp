#include <noether/solvers/near_null_space.hpp>

#include <algorithm>
#include <cstdint>

#include <Eigen/QR>
#include <Eigen/SVD>

namespace noether {
namespace {

/// Subspace iterations per block (near_null_left_directions).
constexpr int kIterations = 3;
/// The first block's columns.
constexpr Index kFirstBlock = 4;

/// A fixed start in [-1, 1] for entry (i, j): a multiplicative hash, so that the start has a
/// component along every direction and the basis is the same bits on every run.
double start_entry(Index i, Index j) {
  std::uint64_t z =
      static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(j) * 0xBF58476D1CE4E5B9ULL + 1;
  z ^= z >> 31;
  z *= 0x94D049BB133111EBULL;
  z ^= z >> 29;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/// Z's columns orthonormalized (thin Householder QR).
Matrix orthonormal(const Matrix& z) {
  const Eigen::HouseholderQR<Matrix> qr(z);
  return qr.householderQ() * Matrix::Identity(z.rows(), z.cols());
}

}  // namespace

Matrix near_null_left_directions(Index n, ConstVectorRef weights, double threshold,
                                 const std::function<void(VectorRef)>& solve,
                                 const std::function<void(VectorRef)>& solve_transposed) {
  const auto inverse_of_s = [&](const Matrix& z) {  // S^{-1} Z = B^{-1} W Z
    Matrix out = weights.asDiagonal() * z;
    for (Index j = 0; j < out.cols(); ++j) solve(out.col(j));
    return out;
  };
  for (Index k = std::min(kFirstBlock, n);; k = std::min(2 * k, n)) {
    Matrix z(n, k);
    for (Index j = 0; j < k; ++j)
      for (Index i = 0; i < n; ++i) z(i, j) = weights(i) * start_entry(i, j);
    z = orthonormal(z);
    for (int iteration = 0; iteration < kIterations; ++iteration) {
      Matrix y = inverse_of_s(z);  // then S^{-T} S^{-1} Z = W B^{-T} (S^{-1} Z)
      for (Index j = 0; j < k; ++j) solve_transposed(y.col(j));
      z = orthonormal(weights.asDiagonal() * y);
    }
    // S^{-1} Z = V_k Sigma_k^{-1} (Z^T U_k)^T over the converged block: its singular values are
    // 1 / sigma_i, its right singular vectors the u_i in Z's coordinates.
    const Eigen::JacobiSVD<Matrix> svd(inverse_of_s(z), Eigen::ComputeThinV);
    const Vector inverse_sigma = svd.singularValues();  // descending
    Index below = 0;
    while (below < k && inverse_sigma(below) * threshold > 1.0) ++below;
    if (below < k || k == n) return z * svd.matrixV().leftCols(below);
  }
}

}  // namespace noether
