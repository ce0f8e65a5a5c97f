#include <doctest/doctest.h>

#include "support/force_checks.hpp"
#include <noether/joints/gravity.hpp>

using namespace noether;
using namespace noether::testing;

TEST_CASE("gravity on a 3D director body: V = -m g.x_c, linear, exact discrete gradient") {
  const BodyRef body{BlockId{0}, BodyKinematics(BodyKind::director3d), "top"};
  const Eigen::Vector3d c(0.1, -0.2, 0.075), g(0.0, 0.0, -9.81);
  const double m = 0.7069;
  const Gravity gravity("gravity", body, m, c, g);
  const Vector q = random_vector(12, 1);
  const Vector x_c = body.kinematics.point_map(c) * q;
  CHECK(gravity.energy(q) == doctest::Approx(-m * g.dot(x_c)).epsilon(1e-15));
  CHECK(gravity.nonlinearity() == Nonlinearity::linear);
  check_potential_derivatives(gravity, q);
  check_discrete_gradient(gravity, q, random_vector(12, 2));
}

TEST_CASE("gravity rejects bad input with the element's name") {
  const BodyRef body{BlockId{0}, BodyKinematics(BodyKind::point_mass3d), "ball"};
  CHECK_THROWS_WITH_AS(Gravity("g", body, -1.0, Vector::Zero(3), Eigen::Vector3d(0, 0, -9.81)),
                       doctest::Contains("gravity 'g'"), std::invalid_argument);
  CHECK_THROWS_AS(Gravity("g", body, 1.0, Vector::Zero(3), Eigen::Vector2d(0, -9.81)), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Gravity("g", body, 1.0, Eigen::Vector3d(0.1, 0, 0), Eigen::Vector3d(0, 0, -9.81)),
                       doctest::Contains("gravity 'g', body 'ball'"), std::invalid_argument);
}
