#include "support/finite_differences.hpp"

#include <random>

namespace noether::testing {

Matrix central_difference_jacobian(const std::function<Vector(const Vector&)>& f, const Vector& x, double step) {
  const Vector f0 = f(x);
  Matrix J(f0.size(), x.size());
  for (Index j = 0; j < x.size(); ++j) {
    Vector xp = x, xm = x;
    xp(j) += step;
    xm(j) -= step;
    J.col(j) = (f(xp) - f(xm)) / (2.0 * step);
  }
  return J;
}

Vector central_difference_gradient(const std::function<double(const Vector&)>& f, const Vector& x, double step) {
  return central_difference_jacobian([&](const Vector& y) { return Vector::Constant(1, f(y)); }, x, step).row(0).transpose();
}

Vector random_vector(Index n, unsigned seed, double scale) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  Vector v(n);
  for (Index i = 0; i < n; ++i) v(i) = uniform(generator);
  return v;
}

Matrix random_matrix_with_zeros(Index rows, Index cols, unsigned seed) {
  Matrix A = Eigen::Map<const Matrix>(random_vector(rows * cols, seed).data(), rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i)
      if ((i + 2 * j) % 3 == 0) A(i, j) = 0.0;
  return A;
}

}  // namespace noether::testing
