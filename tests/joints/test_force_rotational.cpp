#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "support/force_checks.hpp"
#include <noether/joints/function_potential.hpp>
#include <noether/joints/rotational_spring_damper.hpp>

using namespace noether;
using namespace noether::testing;

namespace {

const BodyRef bar_a{BlockId{0}, BodyKinematics(BodyKind::planar_director), "bar a"};
const BodyRef bar_b{BlockId{1}, BodyKinematics(BodyKind::planar_director), "bar b"};
const BodyRef body_a{BlockId{0}, BodyKinematics(BodyKind::director3d), "body a"};
const BodyRef body_b{BlockId{1}, BodyKinematics(BodyKind::director3d), "body b"};

/// Planar director body at phi rotated by alpha: d1 = (cos, sin), d2 = (-sin, cos).
Vector planar_body(const Eigen::Vector2d& phi, double alpha) {
  Vector q(6);
  q << phi, std::cos(alpha), std::sin(alpha), -std::sin(alpha), std::cos(alpha);
  return q;
}

/// 3D director body at phi with d_i the columns of R.
Vector director_body(const Eigen::Vector3d& phi, const Eigen::Matrix3d& R) {
  Vector q(12);
  q << phi, R.col(0), R.col(1), R.col(2);
  return q;
}

Vector stack(const Vector& a, const Vector& b) {
  Vector q(a.size() + b.size());
  q << a, b;
  return q;
}

/// Hinge about body a's d3 (e3 in body coordinates): U_a = e1, W_a = e2 on a, U_b = e1 on b.
HingeAngle hinge_about_d3() {
  return HingeAngle::between(body_a, Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), body_b,
                             Eigen::Vector3d::UnitX());
}

}  // namespace

TEST_CASE("hinge angle: planar and 3D relative rotation angles, shifted zero, derivatives") {
  SUBCASE("planar") {
    const HingeAngle hinge = HingeAngle::planar(bar_a, bar_b);
    const Vector q = stack(planar_body({0.3, 1.0}, 2.9), planar_body({-1.0, 0.2}, -2.5));
    const double expected = 2 * std::numbers::pi - 5.4;  // -2.5 - 2.9 wrapped into (-pi, pi]
    CHECK(hinge.angle(q) == doctest::Approx(expected).epsilon(1e-14));
    CHECK(hinge.shifted(0.7).angle(q) == doctest::Approx(expected - 0.7).epsilon(1e-14));
    CHECK(HingeAngle::planar_from_ground(bar_b).angle(q.tail(6)) == doctest::Approx(-2.5).epsilon(1e-14));
  }
  SUBCASE("3D about a body-fixed axis") {
    const Eigen::Matrix3d R_a = Eigen::AngleAxisd(0.8, Eigen::Vector3d(1, 2, -1).normalized()).toRotationMatrix();
    const double theta = 1.1;
    const Eigen::Matrix3d R_b = R_a * Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    const Vector q = stack(director_body({1, 2, 3}, R_a), director_body({0, -1, 0.5}, R_b));
    CHECK(hinge_about_d3().angle(q) == doctest::Approx(theta).epsilon(1e-14));
  }
  const HingeAngle hinge = hinge_about_d3().shifted(0.3);
  const Vector q = random_vector(24, 7);
  const Vector fd_gradient = central_difference_gradient([&](const Vector& x) { return hinge.angle(x); }, q);
  const Matrix fd_hessian = central_difference_jacobian([&](const Vector& x) { return hinge.angle_gradient(x); }, q);
  CHECK(relative_difference(hinge.angle_gradient(q), fd_gradient) < 1e-7);
  CHECK(relative_difference(hinge.angle_hessian(q), fd_hessian) < 1e-7);
  CHECK_THROWS_AS(
      HingeAngle::between(body_a, Eigen::Vector3d::UnitX(), Eigen::Vector3d(1, 1, 0), body_b, Eigen::Vector3d::UnitX()),
      std::invalid_argument);
  CHECK_THROWS_AS(HingeAngle::planar(bar_a, body_b), std::invalid_argument);
}

TEST_CASE("rotational spring: derivatives, discrete gradient identity, Jacobian, and momentum") {
  const ScalarFunction nonlinear = [](double theta) {  // w = k (1 - cos theta) + c theta^4
    const double k = 4.0, c = 0.5;
    return ScalarJet{k * (1 - std::cos(theta)) + c * std::pow(theta, 4),
                     k * std::sin(theta) + 4 * c * std::pow(theta, 3), k * std::cos(theta) + 12 * c * theta * theta};
  };
  SUBCASE("planar, linear torsion spring with rest angle") {
    const RotationalSpring spring("torsion", HingeAngle::planar(bar_a, bar_b).shifted(0.4), torsion_spring_law(3.0));
    const Vector q_a = stack(planar_body({0, 0}, 0.2), planar_body({1, 0}, 1.3));
    const Vector q_b = stack(planar_body({0.1, 0}, 0.5), planar_body({1, 0.2}, 0.9));
    CHECK(spring.energy(q_a) == doctest::Approx(0.5 * 3.0 * std::pow(1.1 - 0.4, 2)).epsilon(1e-14));
    check_potential_derivatives(spring, q_a);
    check_discrete_gradient(spring, q_a, q_b);
  }
  SUBCASE("3D between bodies, nonlinear law, off the director manifold") {
    const RotationalSpring spring("hinge spring", hinge_about_d3(), nonlinear);
    const Vector q_a = random_vector(24, 11), q_b = random_vector(24, 12);
    check_potential_derivatives(spring, q_a);
    check_discrete_gradient(spring, q_a, q_b);
    const Vector f = discrete_gradient_of(spring, q_a, q_b);
    const NetLoad net = net_load({BodyKind::director3d, BodyKind::director3d}, 0.5 * (q_a + q_b), f);
    MESSAGE("rotational spring: |sum F| ", net.force.norm(), ", |sum q_mid x F| ", net.moment.norm(), " (force scale ",
            f.norm(), ")");
    CHECK(net.force.norm() == 0.0);
    CHECK(net.moment.norm() <= 1e-14 * f.norm());
    // The same V through Gonzalez in the director coordinates: directional, but not momentum conserving.
    const FunctionPotential in_q(
        "spring in q", {BlockId{0}, BlockId{1}}, 24,
        {[&](ConstVectorRef q) { return spring.energy(q); }, [&](ConstVectorRef q) { return gradient_of(spring, q); },
         [&](ConstVectorRef q) { return hessian_of(spring, q); }, Nonlinearity::general});
    const NetLoad gonzalez =
        net_load({BodyKind::director3d, BodyKind::director3d}, 0.5 * (q_a + q_b), discrete_gradient_of(in_q, q_a, q_b));
    MESSAGE("Gonzalez in q: |sum q_mid x F| ", gonzalez.moment.norm());
    CHECK(gonzalez.moment.norm() > 1e-3 * f.norm());
  }
  SUBCASE("3D against the ground") {
    const RotationalSpring spring(
        "ground spring",
        HingeAngle::from_ground(Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitZ(), body_b, Eigen::Vector3d::UnitY()),
        nonlinear);
    check_potential_derivatives(spring, random_vector(12, 13));
    check_discrete_gradient(spring, random_vector(12, 13), random_vector(12, 14));
  }
}

TEST_CASE("rotational damper: C = eta a a^T with a = D theta, q-derivative, power eta theta'^2, momentum") {
  const HingeAngle hinge = hinge_about_d3();
  const RotationalDamper damper("hinge damper", hinge, 0.6);
  const Vector q = random_vector(24, 21), v = random_vector(24, 22);
  check_damping(damper, q, v);
  const double step = 1e-6;
  const double theta_rate = (hinge.angle(q + step * v) - hinge.angle(q - step * v)) / (2 * step);
  CHECK(v.dot(damping_force_of(damper, q, v)) == doctest::Approx(0.6 * theta_rate * theta_rate).epsilon(1e-8));
  const Vector f = damping_force_of(damper, q, v);
  const NetLoad net = net_load({BodyKind::director3d, BodyKind::director3d}, q, f);
  CHECK(net.moment.norm() <= 1e-14 * f.norm());
  const RotationalDamper planar("planar damper", HingeAngle::planar(bar_a, bar_b), 0.6);
  check_damping(planar, random_vector(12, 23), random_vector(12, 24));
}

TEST_CASE("rotational spring discrete gradient stays consistent when the invariants nearly meet") {
  const RotationalSpring spring("hinge spring", hinge_about_d3().shifted(-0.5), torsion_spring_law(8.0));
  const Vector q_a = random_vector(24, 31);
  for (double size : {1e-3, 1e-6, 1e-9, 1e-13}) {  // Gonzalez branch, then midpoint branch
    const Vector q_b = q_a + size * random_vector(24, 32), q_mid = 0.5 * (q_a + q_b);
    CAPTURE(size);
    check_discrete_gradient_identity(spring, q_a, q_b);
    // Dbar V = DV(q_mid) + O(|q_b - q_a|^2), d/dq_b Dbar V = 1/2 D^2 V(q_mid) + O(|q_b - q_a|).
    CHECK(relative_difference(discrete_gradient_of(spring, q_a, q_b), gradient_of(spring, q_mid)) <
          100 * size * size + 1e-13);
    CHECK(relative_difference(discrete_gradient_jacobian_of(spring, q_a, q_b), 0.5 * hessian_of(spring, q_mid)) <
          100 * size + 1e-9);
  }
}
