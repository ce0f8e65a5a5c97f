#include <noether/steppers/exponential_interpolation.hpp>

#include <cmath>

namespace noether {

double sinc(double x) { return x == 0.0 ? 1.0 : std::sin(x) / x; }

std::vector<InterpolationNode> exponential_interpolation(const QuadratureRule& rule, double u) {
  const double sinc_u = sinc(u);
  std::vector<InterpolationNode> nodes;
  nodes.reserve(rule.nodes.size());
  for (std::size_t j = 0; j < rule.nodes.size(); ++j) {
    const double tau = rule.nodes[j];
    nodes.push_back({tau, rule.weights[j], (1.0 - tau) * sinc((1.0 - tau) * u) / sinc_u, tau * sinc(tau * u) / sinc_u,
                     -std::cos((1.0 - tau) * u) / sinc_u, std::cos(tau * u) / sinc_u,
                     2.0 * std::sin(0.5 * u) * std::sin((0.5 - tau) * u) / sinc_u});
  }
  return nodes;
}

}  // namespace noether
