#include <doctest/doctest.h>

#include <noether/bodies/director_constraint.hpp>
#include "support/random_bodies.hpp"
#include "support/finite_differences.hpp"

using namespace noether;
using noether::testing::central_difference_jacobian;
using noether::testing::random_vector;

namespace {

Vector value(const Constraint& c, const Vector& q) {
  Vector g(c.num_equations());
  c.calc_value(q, g);
  return g;
}

Matrix jacobian(const Constraint& c, const Vector& q) {
  Matrix G(c.num_equations(), c.local_size());
  c.calc_jacobian(q, G);
  return G;
}

Matrix discrete_gradient(const Constraint& c, const Vector& qa, const Vector& qb) {
  Matrix Gbar(c.num_equations(), c.local_size());
  c.calc_discrete_gradient(qa, qb, Gbar);
  return Gbar;
}

/// The derivative identities every constraint element must satisfy, at random (not orthonormal)
/// configurations. Finite differences of a quadratic are exact up to round-off, so the
/// tolerances are round-off of the differences (step 1e-6, entries of order 1).
void check_derivatives(const Constraint& c, unsigned seed) {
  const Index n = c.local_size();
  const Vector q = random_vector(n, seed), qa = random_vector(n, seed + 1), qb = random_vector(n, seed + 2);
  const Vector lambda = random_vector(c.num_equations(), seed + 3);

  const Matrix G = jacobian(c, q);
  const Matrix G_fd = central_difference_jacobian([&](const Vector& x) { return value(c, x); }, q);
  CHECK((G - G_fd).cwiseAbs().maxCoeff() <= 1e-9);

  Matrix K = Matrix::Zero(n, n);
  c.add_hessian_contraction(q, lambda, 1.0, K);
  const Matrix K_fd =
      central_difference_jacobian([&](const Vector& x) { return Vector(jacobian(c, x).transpose() * lambda); }, q);
  CHECK((K - K_fd).cwiseAbs().maxCoeff() <= 1e-9);
  CHECK((K - K.transpose()).cwiseAbs().maxCoeff() == 0.0);

  const Vector identity_defect = discrete_gradient(c, qa, qb) * (qb - qa) - (value(c, qb) - value(c, qa));
  MESSAGE("discrete gradient identity defect ", identity_defect.cwiseAbs().maxCoeff());
  CHECK(identity_defect.cwiseAbs().maxCoeff() <= 1e-14);
  CHECK((discrete_gradient(c, q, q) - G).cwiseAbs().maxCoeff() == 0.0);

  Matrix K_bar = Matrix::Zero(n, n);
  c.add_discrete_gradient_contraction_jacobian(qa, qb, lambda, 1.0, K_bar);
  const Matrix K_bar_fd = central_difference_jacobian(
      [&](const Vector& x) { return Vector(discrete_gradient(c, qa, x).transpose() * lambda); }, qb);
  CHECK((K_bar - K_bar_fd).cwiseAbs().maxCoeff() <= 1e-9);
}

}  // namespace

TEST_CASE("director orthonormality (3D): sizes, zero on a rotation, derivatives") {
  const DirectorOrthonormality c("rotor.orthonormality", BlockId{0}, 3);
  CHECK(c.local_size() == 12);
  CHECK(c.num_equations() == 6);
  CHECK(c.nonlinearity() == Nonlinearity::quadratic);

  Vector q(12);
  q.head<3>() = random_vector(3, 5);
  q.tail<9>() = testing::random_rotation(6).reshaped();
  CHECK(value(c, q).cwiseAbs().maxCoeff() <= 1e-15);

  // Row order of [KinonBetschSchneider2023, eq. (61)]:
  // 1/2(d1.d1 - 1), 1/2(d2.d2 - 1), 1/2(d3.d3 - 1), d1.d2, d1.d3, d2.d3.
  Vector p = Vector::Zero(12);
  p.segment<3>(3) << 2, 0, 0;  // d1
  p.segment<3>(6) << 1, 1, 0;  // d2
  p.segment<3>(9) << 0, 3, 1;  // d3
  Vector expected(6);
  expected << 1.5, 0.5, 4.5, 2.0, 0.0, 3.0;
  CHECK((value(c, p) - expected).cwiseAbs().maxCoeff() == 0.0);
  CHECK(jacobian(c, p).leftCols(3).cwiseAbs().maxCoeff() == 0.0);  // phi does not enter

  for (unsigned seed : {11u, 12u, 13u}) check_derivatives(c, seed);
}

TEST_CASE("director orthonormality (planar): sizes, zero on a rotation, derivatives") {
  const DirectorOrthonormality c("bar.orthonormality", BlockId{0}, 2);
  CHECK(c.local_size() == 6);
  CHECK(c.num_equations() == 3);
  Vector q(6);
  q << 0.3, -0.2, std::cos(0.7), std::sin(0.7), -std::sin(0.7), std::cos(0.7);
  CHECK(value(c, q).cwiseAbs().maxCoeff() <= 1e-15);
  Vector p(6);
  p << 9, 9, 2, 0, 1, 1;
  CHECK((value(c, p) - Eigen::Vector3d(1.5, 0.5, 2.0)).cwiseAbs().maxCoeff() == 0.0);
  for (unsigned seed : {21u, 22u, 23u}) check_derivatives(c, seed);
}

TEST_CASE("director orthonormality rejects a dimension other than 2 or 3") {
  CHECK_THROWS_AS(DirectorOrthonormality("odd", BlockId{0}, 4), std::invalid_argument);
}

TEST_CASE("director orthonormality: every body of a dimension shares one form") {
  const DirectorOrthonormality a("a.orthonormality", BlockId{0}, 3), b("b.orthonormality", BlockId{1}, 3);
  const DirectorOrthonormality planar("p.orthonormality", BlockId{2}, 2);
  REQUIRE(a.quadratic_form() != nullptr);
  CHECK(a.quadratic_form() == b.quadratic_form());
  CHECK(planar.quadratic_form() != a.quadratic_form());
  CHECK(planar.quadratic_form()->num_functions() == 3);
  CHECK(a.quadratic_form()->num_functions() == 6);
}
