#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <noether/bodies/spherical_point_mass.hpp>
#include "support/finite_differences.hpp"

using namespace noether;
using namespace noether::testing;

TEST_CASE("point mass in spherical coordinates: T = 1/2 m |x'|^2, and dM/dq, d^2M/dq^2 against differences") {
  const double m = 1.7;
  const MassFunction f = spherical_point_mass(m);
  const Vector q = Eigen::Vector3d(1.3, 0.7, -2.1), v = Eigen::Vector3d(0.4, -1.1, 0.6);
  const Vector x_dot = central_difference_jacobian([](const Vector& y) { return Vector(spherical_to_cartesian(y)); }, q) * v;
  CHECK(0.5 * v.dot(f.mass(q) * v) == doctest::Approx(0.5 * m * x_dot.squaredNorm()).epsilon(1e-9));
  for (Index i = 0; i < 3; ++i) {
    const auto column = [&](const Vector& y) { return Vector(f.mass(y).diagonal()); };
    CHECK((f.mass_derivative(q, i).diagonal() - central_difference_jacobian(column, q).col(i)).norm() < 1e-8);
    for (Index j = 0; j < 3; ++j) {
      const auto derivative = [&](const Vector& y) { return Vector(f.mass_derivative(y, i).diagonal()); };
      CHECK((f.mass_second_derivative(q, i, j).diagonal() - central_difference_jacobian(derivative, q).col(j)).norm() <
            1e-8);
    }
  }
  CHECK(spherical_to_cartesian(Eigen::Vector3d(2.0, M_PI / 2, 0.0)).isApprox(Eigen::Vector3d(2.0, 0.0, 0.0)));
  CHECK_THROWS_WITH_AS(spherical_point_mass(-1.0), doctest::Contains("mass > 0, got -1"), std::invalid_argument);
}

TEST_CASE("point mass in spherical coordinates: a subnormal mass is refused with the value") {
  CHECK_THROWS_WITH_AS(spherical_point_mass(1e-320),
                       "a point mass in spherical coordinates: its mass must be a normal number, at least "
                       "2.2250738585072014e-308, got 1e-320 (a subnormal value keeps too few digits for the equations)",
                       std::invalid_argument);
  CHECK(spherical_point_mass(std::numeric_limits<double>::min()).mass(Eigen::Vector3d(1.0, 0.5, 0.0))(0, 0) ==
        std::numeric_limits<double>::min());
}
