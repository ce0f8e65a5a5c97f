/// DistancePowerConstraint and the four discrete gradients of engine/discrete_gradients.hpp
/// [DiscreteDerivativesEM]: derivatives against finite differences, the directionality condition
/// (13), and the momentum conditions (14), sum_i Dbar_i Phi = 0 and sum_i r_i,mid x Dbar_i Phi = 0,
/// on the invariant constraint Phi = |r12|^4 + |r23|^2 - c of three particles in space.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include <Eigen/Geometry>

#include <noether/joints/distance_power_constraint.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

constexpr std::array kKinds{DiscreteGradientKind::scaled_midpoint, DiscreteGradientKind::average_vector_field,
                            DiscreteGradientKind::gonzalez, DiscreteGradientKind::partitioned};

DistancePowerConstraint invariant_constraint(DiscreteGradientKind kind) {
  return DistancePowerConstraint("phi", {BlockId{0}, BlockId{1}, BlockId{2}}, 3, {{0, 1, 1.0, 2}, {1, 2, 1.0, 1}}, 2.5,
                                 kind);
}

double value(const Constraint& c, const Vector& q) {
  Vector g(1);
  c.calc_value(q, g);
  return g(0);
}

Vector discrete_gradient(const Constraint& c, const Vector& a, const Vector& b) {
  Matrix Gbar(1, a.size());
  c.calc_discrete_gradient(a, b, Gbar);
  return Gbar.row(0).transpose();
}

/// |sum_i Dbar_i| and |sum_i r_i,mid x Dbar_i| (conditions (14)) of a gradient of three points.
std::pair<double, double> momentum_defects(const Vector& dbar, const Vector& a, const Vector& b) {
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), torque = Eigen::Vector3d::Zero();
  for (Index i = 0; i < 3; ++i) {
    const Eigen::Vector3d f = dbar.segment<3>(3 * i), r_mid = 0.5 * (a.segment<3>(3 * i) + b.segment<3>(3 * i));
    force += f;
    torque += r_mid.cross(f);
  }
  return {force.norm(), torque.norm()};
}

}  // namespace

TEST_CASE("distance-power constraint: value, G and the Hessian contraction against finite differences") {
  const DistancePowerConstraint phi = invariant_constraint(DiscreteGradientKind::gonzalez);
  CHECK(phi.nonlinearity() == Nonlinearity::general);
  const Vector q = testing::random_vector(9, 3, 1.5), lambda = Vector::Constant(1, 0.7);
  const Eigen::Vector3d d12 = q.segment<3>(0) - q.segment<3>(3), d23 = q.segment<3>(3) - q.segment<3>(6);
  CHECK(std::abs(value(phi, q) - (std::pow(d12.squaredNorm(), 2) + d23.squaredNorm() - 2.5)) <= 1e-13);
  Matrix G(1, 9);
  phi.calc_jacobian(q, G);
  const Matrix G_fd = testing::central_difference_jacobian([&](const Vector& y) { return Vector::Constant(1, value(phi, y)); }, q);
  CHECK((G - G_fd).cwiseAbs().maxCoeff() <= 1e-7 * (1 + G.cwiseAbs().maxCoeff()));
  Matrix K = Matrix::Zero(9, 9);
  phi.add_hessian_contraction(q, lambda, 1.0, K);
  const Matrix K_fd = testing::central_difference_jacobian(
      [&](const Vector& y) {
        Matrix Gy(1, 9);
        phi.calc_jacobian(y, Gy);
        return Vector(Gy.transpose() * lambda);
      },
      q);
  CHECK((K - K_fd).cwiseAbs().maxCoeff() <= 1e-7 * (1 + K.cwiseAbs().maxCoeff()));
  CHECK_THROWS_WITH_AS(DistancePowerConstraint("bad", {BlockId{0}, BlockId{1}}, 3, {{0, 2, 1.0, 1}}, 0.0,
                                               DiscreteGradientKind::gonzalez),
                       "constraint 'bad': term 0 joins points 0 and 2; give two different points of 0 to 1",
                       std::invalid_argument);
}

TEST_CASE("each discrete gradient is directional (13) and its Jacobian matches finite differences") {
  const Vector a = testing::random_vector(9, 5, 1.5), b = a + testing::random_vector(9, 6, 0.2);
  const Vector lambda = Vector::Constant(1, -1.3);
  for (DiscreteGradientKind kind : kKinds) {
    CAPTURE(to_string(kind));
    const DistancePowerConstraint phi = invariant_constraint(kind);
    const Vector dbar = discrete_gradient(phi, a, b);
    const double increment = value(phi, b) - value(phi, a);
    CHECK(std::abs(dbar.dot(b - a) - increment) <= 1e-13 * (std::abs(value(phi, a)) + std::abs(value(phi, b))));
    Matrix J = Matrix::Zero(9, 9);
    phi.add_discrete_gradient_contraction_jacobian(a, b, lambda, 1.0, J);
    const Matrix J_fd = testing::central_difference_jacobian(
        [&](const Vector& y) { return Vector(lambda(0) * discrete_gradient(phi, a, y)); }, b);
    CHECK((J - J_fd).cwiseAbs().maxCoeff() <= 1e-6 * (1 + J.cwiseAbs().maxCoeff()));
    // Consistency: at a = b every kind is the gradient.
    Matrix G(1, 9);
    phi.calc_jacobian(a, G);
    CHECK((discrete_gradient(phi, a, a) - G.row(0).transpose()).cwiseAbs().maxCoeff() <= 1e-13 * G.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("the momentum conditions (14): only the scaled midpoint meets both, and the average vector field meets the linear one") {
  const Vector a = testing::random_vector(9, 7, 1.5), b = a + testing::random_vector(9, 8, 0.3);
  for (DiscreteGradientKind kind : kKinds) {
    const auto [force, torque] = momentum_defects(discrete_gradient(invariant_constraint(kind), a, b), a, b);
    MESSAGE(to_string(kind), ": |sum_i Dbar_i| = ", force, ", |sum_i r_i,mid x Dbar_i| = ", torque);
    const bool keeps_linear =
        kind == DiscreteGradientKind::scaled_midpoint || kind == DiscreteGradientKind::average_vector_field;
    const bool keeps_angular = kind == DiscreteGradientKind::scaled_midpoint;
    CHECK((force <= 1e-13) == keeps_linear);
    CHECK((torque <= 1e-13) == keeps_angular);
    CHECK((force >= 1e-6 || keeps_linear));  // a violation is a real one, not rounding
    CHECK((torque >= 1e-6 || keeps_angular));
  }
}

TEST_CASE("the scaled midpoint is 0/0-safe: at rest it is the gradient, and applied to Phi on the constraint it vanishes") {
  // Term by term (the element), Phi(a) = Phi(b) = 0 still gives a finite, directional gradient.
  const DistancePowerConstraint phi = invariant_constraint(DiscreteGradientKind::scaled_midpoint);
  const Vector a = testing::random_vector(9, 9, 1.5);
  Matrix G(1, 9);
  phi.calc_jacobian(a, G);
  CHECK(discrete_gradient(phi, a, a) == G.row(0).transpose());
  // On a whole constraint function, f(x) = f(y) = 0 makes rho = 0 wherever Df(z).w != 0: the
  // gradient vanishes, the failure the split avoids. f(q) = q0^4 + q1^2 - 1 between (1, 0) and
  // (0, 1): Df(z).w = 0.5.
  const ScalarField curve{[](ConstVectorRef q) { return std::pow(q(0), 4) + q(1) * q(1) - 1.0; },
                          [](ConstVectorRef q, VectorRef g) { g << 4 * std::pow(q(0), 3), 2 * q(1); },
                          [](ConstVectorRef q, MatrixRef H) { H << 12 * q(0) * q(0), 0, 0, 2; }};
  Vector dbar = Vector::Zero(2);
  add_discrete_gradient(DiscreteGradientKind::scaled_midpoint, curve, Eigen::Vector2d(1.0, 0.0),
                        Eigen::Vector2d(0.0, 1.0), 1.0, dbar);
  CHECK(dbar.norm() == 0.0);
}
