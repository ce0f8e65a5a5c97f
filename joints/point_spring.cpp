#include <noether/joints/point_spring.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

void require_finite_non_negative(const char* law, const char* what, double value) {
  if (!std::isfinite(value) || value < 0.0)
    throw std::invalid_argument(std::string(law) + ": " + what + " " + format_number(value) +
                                " must be finite and non-negative");
}

}  // namespace

SpringLaw linear_spring_law(double stiffness, double rest_length) {
  require_finite_non_negative("linear spring law", "stiffness", stiffness);
  require_finite_non_negative("linear spring law", "rest length", rest_length);
  if (rest_length == 0.0) return [k = stiffness](double pi) { return ScalarJet{0.5 * k * pi, 0.5 * k, 0.0}; };
  return [k = stiffness, L0 = rest_length](double pi) {
    const double L = std::sqrt(pi);
    return ScalarJet{0.5 * k * (L - L0) * (L - L0), 0.5 * k * (1.0 - L0 / L), 0.25 * k * L0 / (pi * L)};
  };
}

SpringLaw green_strain_spring_law(double axial_stiffness, double rest_length) {
  require_finite_non_negative("Green strain spring law", "axial stiffness", axial_stiffness);
  require_finite_non_negative("Green strain spring law", "rest length", rest_length);
  if (rest_length == 0.0) throw std::invalid_argument("Green strain spring law: the rest length must be positive");
  const double L0_squared = rest_length * rest_length;
  return [EA = axial_stiffness, L0_squared](double pi) {
    const double strain = (pi - L0_squared) / (2.0 * L0_squared);
    const double strain_rate = 1.0 / (2.0 * L0_squared);  // d eps / d pi
    return ScalarJet{0.5 * EA * strain * strain, EA * strain * strain_rate, EA * strain_rate * strain_rate};
  };
}

SpringLaw spring_law_of_length(ScalarFunction energy_of_length) {
  if (!energy_of_length) throw std::invalid_argument("spring law of length: give the energy function w(L)");
  return [w = std::move(energy_of_length)](double pi) {
    const double L = std::sqrt(pi);
    const ScalarJet jet = w(L);
    return ScalarJet{jet.value, jet.first / (2.0 * L), (jet.second - jet.first / L) / (4.0 * pi)};
  };
}

PointSpring::PointSpring(std::string name, ForcePointPair points, SpringLaw law)
    : Potential(std::move(name), points.blocks()), points_(std::move(points)), law_(std::move(law)) {
  if (!law_) throw std::invalid_argument("spring " + quote(this->name()) + ": give its spring law W(pi)");
}

std::string PointSpring::singularity(ConstVectorRef q) const {
  if (squared_length(q) != 0.0) return {};
  const ScalarJet W = law_(0.0);
  if (std::isfinite(W.value) && std::isfinite(W.first) && std::isfinite(W.second)) return {};
  return "the spring's two points coincide (length 0), where the direction of its force is undefined (its law is "
         "not finite at zero length); move the points apart, or give a rest length of 0";
}

Vector PointSpring::invariant_gradient(ConstVectorRef q) const {
  return 2.0 * (points_.jacobian().transpose() * points_.separation(q));
}

void PointSpring::do_add_gradient(ConstVectorRef q, double s, VectorRef g) const {
  g.noalias() += (s * law_(squared_length(q)).first) * invariant_gradient(q);
}

void PointSpring::do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const {
  const ScalarJet W = law_(squared_length(q));
  const Vector dpi = invariant_gradient(q);
  const Matrix& J = points_.jacobian();
  K.noalias() += (s * W.second) * (dpi * dpi.transpose());
  K.noalias() += (2.0 * s * W.first) * (J.transpose() * J);
}

void PointSpring::add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const {
  const ScalarDiscreteDerivative W_bar = scalar_discrete_derivative(law_, squared_length(q_a), squared_length(q_b));
  g.noalias() += (s * W_bar.value) * invariant_gradient(0.5 * (q_a + q_b));
}

void PointSpring::add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s, MatrixRef K) const {
  const ScalarDiscreteDerivative W_bar = scalar_discrete_derivative(law_, squared_length(q_a), squared_length(q_b));
  const Matrix& J = points_.jacobian();
  K.noalias() +=
      (s * W_bar.derivative_b) * (invariant_gradient(0.5 * (q_a + q_b)) * invariant_gradient(q_b).transpose());
  K.noalias() += (s * W_bar.value) * (J.transpose() * J);
}

}  // namespace noether
