/// near_null_left_directions (solvers/near_null_space.hpp) on dense matrices of known singular
/// values, solved through Eigen's LU as a sparse factorization would be.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <Eigen/LU>
#include <Eigen/QR>

#include <noether/solvers/near_null_space.hpp>

using namespace noether;

namespace {

/// An orthogonal n x n matrix from the QR factors of a fixed matrix (seeded by `seed`).
Matrix orthogonal(Index n, int seed) {
  Matrix a(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) a(i, j) = std::sin(1.7 * static_cast<double>(i + 1) + 0.9 * static_cast<double>(j * j) + seed);
  const Eigen::HouseholderQR<Matrix> qr(a);
  return qr.householderQ();
}

struct ScaledMatrix {
  Matrix left;    ///< U: S = U diag(sigma) V^T
  Matrix matrix;  ///< B = W S
  Vector weights;
};

/// B = W U diag(sigma) V^T with U, V orthogonal: the row-scaled W^{-1} B has the singular values sigma.
ScaledMatrix scaled_matrix(const std::vector<double>& sigma, const Vector& weights) {
  const Index n = static_cast<Index>(sigma.size());
  ScaledMatrix m;
  m.left = orthogonal(n, 1);
  m.weights = weights;
  m.matrix = weights.asDiagonal() * m.left * Eigen::Map<const Vector>(sigma.data(), n).asDiagonal() *
             orthogonal(n, 2).transpose();
  return m;
}

Matrix directions(const ScaledMatrix& m, double threshold) {
  const Eigen::PartialPivLU<Matrix> lu(m.matrix);
  const Eigen::PartialPivLU<Matrix> lu_t(m.matrix.transpose());
  return near_null_left_directions(
      m.matrix.rows(), m.weights, threshold, [&](VectorRef x) { x = lu.solve(Vector(x)); },
      [&](VectorRef x) { x = lu_t.solve(Vector(x)); });
}

/// max |entry| of U_found U_found^T - U_s U_s^T over the columns `small` of m.left.
double projector_distance(const Matrix& found, const ScaledMatrix& m, const std::vector<Index>& small) {
  Matrix expected = Matrix::Zero(m.left.rows(), m.left.rows());
  for (Index j : small) expected += m.left.col(j) * m.left.col(j).transpose();
  return (found * found.transpose() - expected).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("near_null_left_directions finds the left singular vectors of the row-scaled matrix below the threshold") {
  Vector weights(8);
  weights << 1.0, 10.0, 1e3, 0.1, 2.0, 1e-2, 5.0, 1.0;  // rows of very different magnitudes
  const ScaledMatrix m = scaled_matrix({3.0, 1e-12, 2.0, 0.5, 4e-13, 1.0, 5.0, 0.7}, weights);
  const Matrix found = directions(m, 1e-6);
  REQUIRE(found.cols() == 2);
  CHECK((found.transpose() * found - Matrix::Identity(2, 2)).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK(projector_distance(found, m, {1, 4}) <= 1e-8);
  // None below a threshold under the smallest singular value: an n x 0 basis.
  CHECK(directions(m, 1e-13).cols() == 0);
}

TEST_CASE("near_null_left_directions grows its block while every singular value of it lies below the threshold") {
  // Six small singular values: more than the first block of four.
  const ScaledMatrix m =
      scaled_matrix({1e-11, 2.0, 3e-11, 5e-12, 1.0, 2e-11, 4e-11, 3.0, 6e-12, 0.5}, Vector::Ones(10));
  const Matrix found = directions(m, 1e-6);
  REQUIRE(found.cols() == 6);
  CHECK(projector_distance(found, m, {0, 2, 3, 5, 6, 8}) <= 1e-8);
}

TEST_CASE("near_null_left_directions leaves out a row of weight 0, which must hold exactly") {
  Vector weights = Vector::Ones(6);
  weights(2) = 0.0;
  // B itself is regular (made with unit weights); the weight 0 makes its row 2 infinitely heavy in W^{-1} B.
  ScaledMatrix m = scaled_matrix({1.0, 1e-12, 2.0, 3.0, 0.5, 4.0}, Vector::Ones(6));
  m.weights = weights;
  const Matrix found = directions(m, 1e-6);
  REQUIRE(found.cols() >= 1);
  CHECK(found.row(2).cwiseAbs().maxCoeff() == 0.0);
}
