#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "support/force_checks.hpp"
#include <noether/joints/joint_actuator.hpp>

using namespace noether;
using namespace noether::testing;

namespace {

const BodyRef body_a{BlockId{0}, BodyKinematics(BodyKind::director3d), "body a"};
const BodyRef body_b{BlockId{1}, BodyKinematics(BodyKind::director3d), "body b"};
const BodyRef bar_b{BlockId{1}, BodyKinematics(BodyKind::planar_director), "bar b"};

Vector director_body(const Eigen::Vector3d& phi, const Eigen::Matrix3d& R) {
  Vector q(12);
  q << phi, R.col(0), R.col(1), R.col(2);
  return q;
}

Vector planar_body(const Eigen::Vector2d& phi, double alpha) {
  Vector q(6);
  q << phi, std::cos(alpha), std::sin(alpha), -std::sin(alpha), std::cos(alpha);
  return q;
}

Vector stack(const Vector& a, const Vector& b) {
  Vector q(a.size() + b.size());
  q << a, b;
  return q;
}

Eigen::Matrix3d rotation(double angle, const Eigen::Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Two rigid 3D bodies, b turned by theta about a's d3 from a's frame R_a, b's centre moved by `shift`.
Vector hinge_pair(const Eigen::Matrix3d& R_a, double theta, const Eigen::Vector3d& shift) {
  return stack(director_body({1, 2, 3}, R_a),
               director_body(Eigen::Vector3d(0, -1, 0.5) + shift, R_a * rotation(theta, Eigen::Vector3d::UnitZ())));
}

std::shared_ptr<const HingeCoordinate> hinge_about_d3() {
  return std::make_shared<HingeCoordinate>(HingeAngle::between(body_a, Eigen::Vector3d::UnitX(),
                                                               Eigen::Vector3d::UnitY(), body_b,
                                                               Eigen::Vector3d::UnitX()));
}

std::shared_ptr<const SlideCoordinate> slide_along_d1() {
  return std::make_shared<SlideCoordinate>(SlideCoordinate::between(
      body_a, Eigen::Vector3d(0.1, 0.0, 0.2), Eigen::Vector3d::UnitX(), body_b, Eigen::Vector3d(0.0, 0.3, 0.0)));
}

Matrix discrete_gradient_jacobian_of(const JointCoordinate& x, const Vector& q0, const Vector& q1) {
  Matrix K = Matrix::Zero(q0.size(), q0.size());
  x.add_discrete_gradient_jacobian(q0, q1, 1.0, K);
  return K;
}

/// The identity Dbar x.(q1 - q0) = x(q1) - x(q0) to round-off, Dbar x(q, q) = D x(q), d Dbar x/dq1 against
/// central differences, and no net force or moment from u Dbar x (momenta kept).
void check_coordinate(const JointCoordinate& x, const Vector& q0, const Vector& q1) {
  const Vector g = x.discrete_gradient(q0, q1);
  const double dx = x.increment(q0, q1);
  INFO("increment ", dx);
  CHECK(std::abs(g.dot(q1 - q0) - dx) <= 1e-14 * (1.0 + std::abs(dx)) * (1.0 + g.norm() * (q1 - q0).norm()));
  CHECK(relative_difference(x.discrete_gradient(q0, q0), x.gradient(q0)) < 1e-14);
  const Matrix fd = central_difference_jacobian([&](const Vector& q) { return x.discrete_gradient(q0, q); }, q1);
  CHECK(relative_difference(discrete_gradient_jacobian_of(x, q0, q1), fd) < 1e-7);
  const Matrix fd_gradient = central_difference_gradient([&](const Vector& q) { return x.value(q); }, q1);
  CHECK(relative_difference(x.gradient(q1), fd_gradient) < 1e-7);
  const NetLoad net = net_load({BodyKind::director3d, BodyKind::director3d}, 0.5 * (q0 + q1), g);
  CHECK(net.force.norm() < 1e-13 * (1.0 + g.norm()));
}

}  // namespace

TEST_CASE("hinge coordinate: the turn over a step, exact discrete gradient identity, Jacobian, no net load") {
  const Eigen::Matrix3d R_a = rotation(0.8, {1, 2, -1});
  SUBCASE("a large step") { check_coordinate(*hinge_about_d3(), hinge_pair(R_a, 0.3, Eigen::Vector3d::Zero()), hinge_pair(R_a, 1.4, Eigen::Vector3d(0.1, 0, 0))); }
  SUBCASE("a small step (the series of alpha)") {
    check_coordinate(*hinge_about_d3(), hinge_pair(R_a, 0.3, Eigen::Vector3d::Zero()), hinge_pair(R_a, 0.3 + 1e-4, Eigen::Vector3d::Zero()));
  }
  SUBCASE("a step across theta = pi: the increment is the turn, not the jump of atan2") {
    const Vector q0 = hinge_pair(R_a, std::numbers::pi - 0.1, Eigen::Vector3d::Zero()), q1 = hinge_pair(R_a, -std::numbers::pi + 0.2, Eigen::Vector3d::Zero());
    CHECK(hinge_about_d3()->increment(q0, q1) == doctest::Approx(0.3).epsilon(1e-13));
    check_coordinate(*hinge_about_d3(), q0, q1);
  }
  SUBCASE("off the manifold of rigid bodies (as Newton's iterates)") {
    const Vector q0 = hinge_pair(R_a, 0.3, Eigen::Vector3d::Zero()) + 0.01 * random_vector(24, 3);
    check_coordinate(*hinge_about_d3(), q0, q0 + 0.2 * random_vector(24, 4));
  }
}

TEST_CASE("slide coordinate: value, exact discrete gradient identity, Jacobian, no net load") {
  const Eigen::Matrix3d R_a = rotation(0.5, {0, 1, 1});
  const Vector q0 = stack(director_body({0, 0, 0}, R_a), director_body({1.0, 0.4, -0.2}, R_a));
  const std::shared_ptr<const SlideCoordinate> slide = slide_along_d1();
  const SlideCoordinate& x = *slide;
  // p_b - p_a = (1, 0.4, -0.2) + R_a (0, 0.3, 0) - R_a (0.1, 0, 0.2), along R_a e1.
  const Eigen::Vector3d d = Eigen::Vector3d(1.0, 0.4, -0.2) + R_a * Eigen::Vector3d(-0.1, 0.3, -0.2);
  CHECK(x.value(q0) == doctest::Approx(d.dot(R_a.col(0))).epsilon(1e-14));
  check_coordinate(x, q0, q0 + 0.3 * random_vector(24, 5));
  const SlideCoordinate ground = SlideCoordinate::from_ground(Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1), bar_b,
                                                              Eigen::Vector2d(0.5, 0));
  CHECK(ground.value(planar_body({2.0, 3.0}, std::numbers::pi / 2)) == doctest::Approx(3.5).epsilon(1e-14));
  CHECK_THROWS_WITH_AS(SlideCoordinate::from_ground(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1), bar_b,
                                                    Eigen::Vector2d(0, 0)),
                       doctest::Contains("unit length"), std::invalid_argument);
}

TEST_CASE("joint actuator: work u dx over a step exactly, step force Jacobian against central differences") {
  const Eigen::Matrix3d R_a = rotation(0.8, {1, 2, -1});
  const Vector q0 = hinge_pair(R_a, 0.3, Eigen::Vector3d::Zero()), q1 = hinge_pair(R_a, 0.9, Eigen::Vector3d(0.05, 0, 0)) + 0.01 * random_vector(24, 9);
  const StepSpan step{0.4, 0.05};
  for (const auto& coordinate : {std::shared_ptr<const JointCoordinate>(hinge_about_d3()),
                                 std::shared_ptr<const JointCoordinate>(slide_along_d1())}) {
    const ActuatorLaw laws[] = {
        profile_law(SineProfile{2.0, 3.0, 0.1, 0.5}, "motor"),
        pd_law(*coordinate, 40.0, 3.0, SineProfile{0.5, 2.0, 0.0, 0.2}, "motor"),
        finite_difference_law([](double t, double x, double rate) { return std::sin(t) - 5 * x * x - 0.3 * rate * x; },
                              "motor"),
    };
    for (const ActuatorLaw& law : laws) {
      INFO("along the ", coordinate->quantity());
      const JointActuator motor("motor", coordinate, law);
      Vector F = Vector::Zero(24);
      motor.add_step_force(step, q0, q1, 1.0, F);
      const double u = motor.step_value(step, q0, q1), dx = coordinate->increment(q0, q1);
      CHECK(std::abs(F.dot(q1 - q0) - u * dx) <= 1e-14 * std::abs(u) * (1.0 + std::abs(dx)) * (1.0 + (q1 - q0).norm()));
      Matrix K = Matrix::Zero(24, 24);
      motor.add_step_force_jacobian(step, q0, q1, 1.0, K);
      const Matrix fd = central_difference_jacobian(
          [&](const Vector& q) {
            Vector f = Vector::Zero(24);
            motor.add_step_force(step, q0, q, 1.0, f);
            return f;
          },
          q1);
      CHECK(relative_difference(K, fd) < 1e-6);
    }
  }
}

TEST_CASE("PD law: u = -kp (x - r) - kd (x_dot - r'), read at the step's midpoint time, mean coordinate and rate") {
  const auto bar = std::make_shared<HingeCoordinate>(HingeAngle::planar_from_ground(bar_b));
  const ActuatorLaw pd = pd_law(*bar, 10.0, 2.0, SineProfile{1.0, 2.0, 0.0, 0.0}, "motor 'm'");
  const ActuatorJet u = pd(0.3, 0.4, -1.0);
  CHECK(u.value == doctest::Approx(-10.0 * (0.4 - std::sin(0.6)) - 2.0 * (-1.0 - 2.0 * std::cos(0.6))).epsilon(1e-15));
  CHECK(u.d_position == -10.0);
  CHECK(u.d_rate == -2.0);
  // The step's u: t0 + h/2, x0 + dx/2, dx/h.
  const JointActuator motor("m", bar, pd);
  const double theta0 = 0.2, theta1 = 0.35, h = 0.1;
  CHECK(motor.step_value({0.25, h}, planar_body({0, 0}, theta0), planar_body({0, 0}, theta1)) ==
        doctest::Approx(pd(0.3, 0.275, 1.5).value).epsilon(1e-13));
}

TEST_CASE("coordinate difference: x - r itself within half a period, wrapped beyond it, as it is without a period") {
  const double pi = std::numbers::pi, turn = 2 * pi;
  for (const double e : {0.0, 0.3, -0.3, pi - 1e-9, -pi + 1e-9, pi})
    CHECK(coordinate_difference(1.7 + e, 1.7, turn) == 1.7 + e - 1.7);  // to the bit
  CHECK(coordinate_difference(-pi + 0.1, pi - 0.2, turn) == doctest::Approx(0.3).epsilon(1e-14));
  CHECK(coordinate_difference(pi - 0.1, 0.2 + 3 * turn, turn) == doctest::Approx(pi - 0.3).epsilon(1e-14));
  CHECK(coordinate_difference(0.1, 0.2 + 3 * turn, turn) == doctest::Approx(-0.1).epsilon(1e-13));
  CHECK(coordinate_difference(0.0, pi, turn) == pi);                   // -pi is outside (-pi, pi]: it is pi
  CHECK(coordinate_difference(-pi, pi, turn) == doctest::Approx(0.0));  // one configuration
  CHECK(coordinate_difference(pi, -pi + 0.0, turn) == 0.0);
  CHECK(coordinate_difference(-1.5 * pi, 0.0, turn) == doctest::Approx(0.5 * pi).epsilon(1e-15));  // -3pi/2 -> pi/2
  CHECK(coordinate_difference(-3 * pi, 0.0, turn) == doctest::Approx(pi).epsilon(1e-15));          // -pi -> pi
  CHECK(coordinate_difference(0.1, 0.2 + 3 * turn, 0.0) == 0.1 - (0.2 + 3 * turn));
  CHECK(hinge_about_d3()->period() == turn);
  CHECK(slide_along_d1()->period() == 0.0);
}

TEST_CASE("PD law of a hinge: the error wrapped to within half a turn of a reference turns ahead, and the work u dx "
          "of a step across pi") {
  const double pi = std::numbers::pi, omega = 2 * pi;
  const auto bar = std::make_shared<HingeCoordinate>(HingeAngle::planar_from_ground(bar_b));
  // r(t) = omega t: at t = 3.5 the reference has turned three times and a half, r = 7 pi.
  const ActuatorLaw pd = pd_law(*bar, 100.0, 2.0, RampProfile{omega, 0.0}, "motor 'crank'");
  const double t = 3.5;
  // The angle pi - 0.02 is 0.02 rad behind r (modulo 2 pi); its rate 0.5 above r' = omega.
  CHECK(pd(t, pi - 0.02, omega + 0.5).value == doctest::Approx(-100.0 * -0.02 - 2.0 * 0.5).epsilon(1e-12));
  CHECK(pd(t, pi - 0.02, omega + 0.5).d_position == -100.0);
  // The same law along a slide does not wrap: x - r is 6 pi more.
  const ActuatorLaw along_slide = pd_law(*slide_along_d1(), 100.0, 2.0, RampProfile{omega, 0.0}, "push");
  CHECK(along_slide(t, pi - 0.02, omega).value == doctest::Approx(-100.0 * (pi - 0.02 - 7 * pi)).epsilon(1e-14));
  // A step about t = 3.5 from 0.1 rad before pi to 0.15 rad past it (the measured angle from pi - 0.1 to
  // -pi + 0.15): the law reads x0 + dx/2 = pi + 0.025, 0.025 rad ahead of r, and the motor's work is u times
  // the turn dx = 0.25, not times the jump of the measured angles.
  const JointActuator motor("crank", bar, pd);
  const Vector q0 = planar_body({0.1, 0.0}, pi - 0.1), q1 = planar_body({-0.1, 0.05}, -pi + 0.15);
  const StepSpan step{t - 0.02, 0.04};
  const double dx = bar->increment(q0, q1), u = motor.step_value(step, q0, q1);
  CHECK(dx == doctest::Approx(0.25).epsilon(1e-13));
  CHECK(u == doctest::Approx(-100.0 * 0.025 - 2.0 * (0.25 / 0.04 - omega)).epsilon(1e-12));
  Vector F = Vector::Zero(6);
  motor.add_step_force(step, q0, q1, 1.0, F);
  CHECK(std::abs(F.dot(q1 - q0) - u * dx) <= 1e-14 * std::abs(u * dx));
}

TEST_CASE("actuator laws refuse bad gains and profiles by name") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(pd_law(*slide_along_d1(), -1.0, 0.0, ConstantProfile{0.0}, "actuator 'elbow'"),
                       "actuator 'elbow': the gain kp = -1 must be finite and non-negative", std::invalid_argument);
  CHECK_THROWS_WITH_AS(pd_law(*slide_along_d1(), 1.0, nan, ConstantProfile{0.0}, "actuator 'elbow'"),
                       doctest::Contains("actuator 'elbow': the gain kd = nan"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(pd_law(*slide_along_d1(), 1.0, 1.0, TableProfile{{0.0, 1.0, 0.5}, {0, 1, 2}}, "actuator 'elbow'"),
                       doctest::Contains("actuator 'elbow': the reference r(t): the table's times must increase strictly"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(profile_law(SineProfile{nan, 1.0, 0.0, 0.0}, "actuator 'base'"),
                       doctest::Contains("actuator 'base': the profile u(t): a profile value is not finite (nan)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(finite_difference_law({}, "actuator 'base'"), doctest::Contains("actuator 'base'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(JointActuator("m", nullptr, profile_law(ConstantProfile{1.0}, "m")),
                       doctest::Contains("actuator 'm': give the joint coordinate"), std::invalid_argument);
}
