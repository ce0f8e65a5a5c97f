#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "support/force_checks.hpp"
#include <noether/joints/polynomial_potential.hpp>

using namespace noether;
using namespace noether::testing;

namespace {

/// The strain energy 1/2 EA eps^2, eps = (r^2 - l0^2)/(2 l0^2), of the spring pendulum written as a
/// polynomial in u = r - l0: EA/(8 l0^4) (4 l0^2 u^2 + 4 l0 u^3 + u^4).
PolynomialPotential strain_energy(double EA, double l0) {
  const double f = EA / (8 * std::pow(l0, 4));
  return {"strain", BlockId{0}, 3, 0, l0, {0.0, 0.0, 4 * l0 * l0 * f, 4 * l0 * f, f}};
}

}  // namespace

TEST_CASE("polynomial potential: V, DV, D^2 V of a quartic in one coordinate of a block") {
  const PolynomialPotential V = strain_energy(300.0, 1.0);
  Vector q(3);
  q << 1.05, 0.3, -2.0;
  const double eps = (1.05 * 1.05 - 1.0) / 2.0;
  CHECK(V.energy(q) == doctest::Approx(0.5 * 300.0 * eps * eps).epsilon(1e-14));
  CHECK(V.nonlinearity() == Nonlinearity::general);
  check_potential_derivatives(V, q);
  Vector q_b = q;
  q_b(0) = 0.93;
  q_b(2) = 4.0;  // a coordinate the potential does not depend on
  check_discrete_gradient(V, q, q_b);
  CHECK(discrete_gradient_of(V, q, q_b).tail(2).isZero());
}

TEST_CASE("polynomial potential: the divided difference keeps the identity at close points, where V(b) - V(a) cancels") {
  const PolynomialPotential V = strain_energy(300.0, 1.0);
  for (double gap : {1e-3, 1e-6, 1e-9}) {
    CAPTURE(gap);
    const Vector q_a = Eigen::Vector3d(1.01, 0, 0), q_b = Eigen::Vector3d(1.01 + gap, 0, 0);
    const double slope = discrete_gradient_of(V, q_a, q_b)(0);
    // The exact divided difference of 37.5 (r^2 - 1)^2: 37.5 (r_a^2 + r_b^2 - 2)(r_a + r_b), in long double.
    const long double ra = static_cast<long double>(q_a(0)), rb = static_cast<long double>(q_b(0));
    const double exact = static_cast<double>(37.5L * (ra * ra + rb * rb - 2.0L) * (ra + rb));
    CHECK(std::abs(slope - exact) <= 1e-13 * std::abs(exact));
  }
  const Vector q = Eigen::Vector3d(0.97, 1, 1);
  CHECK(discrete_gradient_of(V, q, q)(0) == doctest::Approx(gradient_of(V, q)(0)).epsilon(1e-15));
}

TEST_CASE("polynomial potential of degree <= 2 states its exact form") {
  const PolynomialPotential spring("spring", BlockId{0}, 1, 0, 0.5, {0.25, -1.0, 1.5});
  CHECK(spring.nonlinearity() == Nonlinearity::quadratic);
  const Vector q = Vector::Constant(1, 2.0);
  Vector value(1);
  spring.quadratic_form()->calc_value(q, value);
  CHECK(value(0) == doctest::Approx(spring.energy(q)).epsilon(1e-15));
  CHECK(spring.energy(q) == doctest::Approx(0.25 - 1.5 + 1.5 * 2.25).epsilon(1e-15));
  const PolynomialPotential line("line", BlockId{0}, 2, 1, 0.0, {0.0, 9.81});
  CHECK(line.nonlinearity() == Nonlinearity::linear);
  check_discrete_gradient(line, Eigen::Vector2d(0, 1), Eigen::Vector2d(3, -2));
}

TEST_CASE("polynomial potential refuses bad data, naming itself") {
  CHECK_THROWS_WITH_AS(PolynomialPotential("p", BlockId{0}, 2, 2, 0.0, {1.0}),
                       doctest::Contains("polynomial potential 'p': coordinate 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(PolynomialPotential("p", BlockId{0}, 1, 0, 0.0, {}), doctest::Contains("at least one"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(PolynomialPotential("p", BlockId{0}, 1, 0, 0.0, {1.0, std::numeric_limits<double>::quiet_NaN()}),
                       doctest::Contains("coefficient c1 must be finite"), std::invalid_argument);
}
