#include <doctest/doctest.h>

#include <cmath>

#include <noether/engine/discrete_derivative.hpp>

using namespace noether;

namespace {

/// W(x) = exp(x) + x^3: every derivative non-zero, so the Taylor form's error shows.
ScalarJet test_function(double x) { return {std::exp(x) + x * x * x, std::exp(x) + 3 * x * x, std::exp(x) + 6 * x}; }

}  // namespace

TEST_CASE("scalar discrete derivative: difference quotient, its b-derivative, and the near-equal limit") {
  const ScalarFunction W = test_function;
  SUBCASE("well separated: the quotient satisfies Wbar (b - a) = W(b) - W(a) and dWbar/db matches differences") {
    const double a = 0.3, b = 0.7;
    const ScalarDiscreteDerivative d = scalar_discrete_derivative(W, a, b);
    CHECK(std::abs(d.value * (b - a) - (W(b).value - W(a).value)) < 1e-15);
    const double step = 1e-6;
    const double fd =
        (scalar_discrete_derivative(W, a, b + step).value - scalar_discrete_derivative(W, a, b - step).value) /
        (2 * step);
    CHECK(std::abs(d.derivative_b - fd) < 1e-8);
  }
  SUBCASE("equal arguments give W'(a) and W''(a)/2") {
    const ScalarDiscreteDerivative d = scalar_discrete_derivative(W, 0.4, 0.4);
    CHECK(d.value == doctest::Approx(W(0.4).first).epsilon(1e-15));
    CHECK(d.derivative_b == doctest::Approx(0.5 * W(0.4).second).epsilon(1e-15));
  }
  SUBCASE("both branches agree across the threshold to the size of the Taylor error") {
    const double a = 0.5;
    for (double gap : {0.9e-5, 1.1e-5}) {  // just below and just above gap * (|a| + |b|) ~ 1e-5
      const double b = a + gap * (2 * a);
      const ScalarDiscreteDerivative d = scalar_discrete_derivative(W, a, b);
      const double exact_quotient = W(0.5 * (a + b)).first;  // + O(gap^2) ~ 1e-10
      CAPTURE(gap);
      CHECK(std::abs(d.value - exact_quotient) < 1e-9);
      CHECK(std::abs(d.derivative_b - 0.5 * W(0.5 * (a + b)).second) < 1e-4);
      CHECK(std::abs(d.value * (b - a) - (W(b).value - W(a).value)) < 1e-15);
    }
  }
}
