#include <noether/engine/discrete_derivative.hpp>

#include <cmath>

namespace noether {

ScalarDiscreteDerivative scalar_discrete_derivative(const ScalarFunction& W, double a, double b) {
  const double gap = b - a;
  if (std::abs(gap) <= scalar_discrete_derivative_gap * (std::abs(a) + std::abs(b))) {
    const ScalarJet mid = W(0.5 * (a + b));
    return {mid.first, 0.5 * mid.second};
  }
  const ScalarJet at_a = W(a);
  const ScalarJet at_b = W(b);
  const double quotient = (at_b.value - at_a.value) / gap;
  return {quotient, (at_b.first - quotient) / gap};
}

}  // namespace noether
