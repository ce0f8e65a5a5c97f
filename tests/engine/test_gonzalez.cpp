#include <cmath>

#include <doctest/doctest.h>

#include <noether/engine/gonzalez.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

/// f(x) = sin(a.x) + exp(b.x) + log(1 + (c.x)^2): smooth, not a polynomial, with its exact
/// gradient and Hessian. a, b, c are reproducible random vectors of size n.
struct TestFunction {
  Vector a, b, c;
  TestFunction(Index n, unsigned seed)
      : a(testing::random_vector(n, seed, 1.2)), b(testing::random_vector(n, seed + 1, 0.5)),
        c(testing::random_vector(n, seed + 2, 1.0)) {}

  double value(const Vector& x) const {
    const double u = c.dot(x);
    return std::sin(a.dot(x)) + std::exp(b.dot(x)) + std::log(1.0 + u * u);
  }
  Vector gradient(const Vector& x) const {
    const double u = c.dot(x);
    return std::cos(a.dot(x)) * a + std::exp(b.dot(x)) * b + (2.0 * u / (1.0 + u * u)) * c;
  }
  Matrix hessian(const Vector& x) const {
    const double u = c.dot(x);
    return -std::sin(a.dot(x)) * a * a.transpose() + std::exp(b.dot(x)) * b * b.transpose() +
           (2.0 * (1.0 - u * u) / ((1.0 + u * u) * (1.0 + u * u))) * c * c.transpose();
  }
  /// Dbar f(x, y) through add_gonzalez_gradient.
  Vector discrete_gradient(const Vector& x, const Vector& y) const {
    Vector out = Vector::Zero(x.size());
    add_gonzalez_gradient(x, y, value(x), value(y), gradient(0.5 * (x + y)), 1.0, out);
    return out;
  }
  /// d/dy Dbar f(x, y) through add_gonzalez_jacobian.
  Matrix discrete_gradient_jacobian(const Vector& x, const Vector& y) const {
    Matrix K = Matrix::Zero(x.size(), x.size());
    const Vector z = 0.5 * (x + y);
    add_gonzalez_jacobian(x, y, value(x), value(y), gradient(y), gradient(z), hessian(z), 1.0, K);
    return K;
  }
};

}  // namespace

TEST_CASE("the Gonzalez gradient satisfies Dbar f(x, y).(y - x) = f(y) - f(x) to round-off") {
  double worst = 0.0;
  for (unsigned seed = 0; seed < 20; ++seed) {
    const Index n = 2 + static_cast<Index>(seed % 5);
    const TestFunction f(n, 100 + 3 * seed);
    const Vector x = testing::random_vector(n, 200 + seed, 1.0);
    for (const double length : {1.0, 1e-2, 1e-4, 1e-5, 1e-7, 1e-10}) {
      const Vector y = x + length * testing::random_vector(n, 300 + seed, 1.0);
      const double defect = f.discrete_gradient(x, y).dot(y - x) - (f.value(y) - f.value(x));
      // Round-off of the terms summed: f values of size ~|f|, products of size |Dbar| |w|.
      const double scale = std::abs(f.value(x)) + std::abs(f.value(y)) + f.gradient(x).norm() * (y - x).norm();
      worst = std::max(worst, std::abs(defect) / scale);
      CHECK(std::abs(defect) <= 1e-15 * scale);
    }
  }
  MESSAGE("worst relative identity defect ", worst);
}

TEST_CASE("add_gonzalez_gradient and add_gonzalez_jacobian accumulate with the factor s") {
  const TestFunction f(3, 7);
  const Vector x = testing::random_vector(3, 8, 1.0), y = testing::random_vector(3, 9, 1.0);
  const Vector z = 0.5 * (x + y);
  Vector out = Vector::Ones(3);
  add_gonzalez_gradient(x, y, f.value(x), f.value(y), f.gradient(z), -2.5, out);
  CHECK((out - (Vector::Ones(3) - 2.5 * f.discrete_gradient(x, y))).cwiseAbs().maxCoeff() <= 1e-14);
  Matrix K = Matrix::Ones(3, 3);
  add_gonzalez_jacobian(x, y, f.value(x), f.value(y), f.gradient(y), f.gradient(z), f.hessian(z), -2.5, K);
  CHECK((K - (Matrix::Ones(3, 3) - 2.5 * f.discrete_gradient_jacobian(x, y))).cwiseAbs().maxCoeff() <= 1e-13);
}

TEST_CASE("the Jacobian of the Gonzalez gradient matches central differences in y") {
  for (unsigned seed = 0; seed < 10; ++seed) {
    const Index n = 2 + static_cast<Index>(seed % 4);
    const TestFunction f(n, 400 + 3 * seed);
    const Vector x = testing::random_vector(n, 500 + seed, 1.0);
    for (const double length : {1.0, 1e-1, 1e-2}) {
      CAPTURE(seed);
      CAPTURE(length);
      const Vector y = x + length * testing::random_vector(n, 600 + seed, 1.0);
      const Matrix K = f.discrete_gradient_jacobian(x, y);
      // Dbar varies on the scale |w| (c carries 1/|w|^2), so the step scales with |w|: the
      // truncation error is then ~(step/|w|)^2 = 1e-6 and the rounding ~eps |f| / (|w| step) <= 1e-9.
      const double step = 1e-3 * length;
      const Matrix K_fd = testing::central_difference_jacobian([&](const Vector& yy) { return f.discrete_gradient(x, yy); },
                                                               y, step);
      CHECK((K - K_fd).cwiseAbs().maxCoeff() <= 1e-6 * (1.0 + K.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("as y -> x the Gonzalez gradient tends to the midpoint gradient, its Jacobian to D^2 f / 2") {
  const TestFunction f(4, 11);
  const Vector x = testing::random_vector(4, 12, 1.0);
  const Vector direction = testing::random_vector(4, 13, 1.0).normalized();
  double previous = 1.0;
  for (const double length : {1e-1, 1e-2, 1e-3, 1e-4}) {
    CAPTURE(length);
    const Vector y = x + length * direction;
    const Vector z = 0.5 * (x + y);
    // Dbar - Df(z) = [D^3 f(z)[w, w, w] / 24 + O(|w|^5)] w / |w|^2 = O(|w|^2).
    const double gap = (f.discrete_gradient(x, y) - f.gradient(z)).norm();
    CHECK(gap <= length * length);  // |D^3 f| / 24 < 1 for this f
    CHECK(gap <= 0.02 * previous);  // second order: each tenfold step shrinks it ~100-fold
    previous = gap;
    CHECK((f.discrete_gradient_jacobian(x, y) - 0.5 * f.hessian(z)).cwiseAbs().maxCoeff() <= 2.0 * length);
  }
  // Where f(y) - f(x) - Df(z).w is rounding noise (here below |w| ~ 1e-5: it is O(|w|^3)), the
  // midpoint gradient itself is returned, exactly.
  for (const double length : {0.0, 1e-15, 1e-12, 1e-9, 1e-7}) {
    CAPTURE(length);
    const Vector y = x + length * direction;
    const Vector z = 0.5 * (x + y);
    CHECK_FALSE(gonzalez_coefficient(f.value(x), f.value(y), f.gradient(z), y - x).has_value());
    CHECK(f.discrete_gradient(x, y) == f.gradient(z));
    CHECK(f.discrete_gradient_jacobian(x, y) == 0.5 * f.hessian(z));
    CHECK(std::abs(f.discrete_gradient(x, y).dot(y - x) - (f.value(y) - f.value(x))) <= 1e-15 * std::abs(f.value(x)));
  }
  const Vector y = x + 1e-2 * direction;
  CHECK(gonzalez_coefficient(f.value(x), f.value(y), f.gradient(Vector(0.5 * (x + y))), y - x).has_value());
}

TEST_CASE("near the cut-off the Gonzalez gradient stays accurate (no rounding blow-up)") {
  // With a cut-off at |w| ~ 1e-14 the correction at |w| = 1e-12 would be pure rounding, 1e-4 in
  // the gradient and 1e8 in its Jacobian.
  const TestFunction f(4, 21);
  const Vector x = testing::random_vector(4, 22, 1.0);
  const Vector direction = testing::random_vector(4, 23, 1.0).normalized();
  for (double length = 1e-14; length <= 1e-2; length *= 10.0) {
    CAPTURE(length);
    const Vector y = x + length * direction;
    const Vector z = 0.5 * (x + y);
    // The true differences are O(|w|^2) and O(|w|); the allowances 1e-9 and 1e-3 are for rounding.
    CHECK((f.discrete_gradient(x, y) - f.gradient(z)).norm() <= length * length + 1e-9);
    CHECK((f.discrete_gradient_jacobian(x, y) - 0.5 * f.hessian(z)).cwiseAbs().maxCoeff() <= length + 1e-3);
  }
}
