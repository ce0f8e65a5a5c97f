/// The driven joints and the prescribed point (rheonomic constraints g(q, t) = 0): their
/// derivatives in q and t against central differences, the discrete gradient identity across a
/// step in q and t, what their drive rows measure, and their refusals of bad profiles.
#include <cmath>
#include <limits>

#include <noether/joints/driven_prismatic.hpp>
#include <noether/joints/driven_revolute.hpp>
#include <noether/joints/prescribed_point.hpp>
#include <noether/joints/revolute_planar.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

const BodyRef A2 = body(0, BodyKind::planar_director, "A");
const BodyRef B2 = body(1, BodyKind::planar_director, "B");
const BodyRef A3 = body(0, BodyKind::director3d, "A");
const BodyRef B3 = body(1, BodyKind::director3d, "B");
const SineProfile wobble{0.7, 2.3, 0.4, 0.2};

Vector value_at(const Constraint& c, double t, const Vector& q) {
  Vector g(c.num_equations());
  c.calc_value_at(t, q, g);
  return g;
}
Matrix jacobian_at(const Constraint& c, double t, const Vector& q) {
  Matrix G(c.num_equations(), c.local_size());
  c.calc_jacobian_at(t, q, G);
  return G;
}
Vector rate_at(const Constraint& c, double t, const Vector& q) {
  Vector g_t(c.num_equations());
  c.calc_rate(t, q, g_t);
  return g_t;
}
Matrix rate_jacobian_at(const Constraint& c, double t, const Vector& q) {
  Matrix G_t(c.num_equations(), c.local_size());
  c.calc_rate_jacobian(t, q, G_t);
  return G_t;
}
double relative(const Matrix& error, const Matrix& reference) {
  return largest_abs(error) / std::max(1.0, largest_abs(reference));
}

/// Every derivative the steppers read, at random (non-orthonormal) coordinates and time.
void check_rheonomic_derivatives(const Constraint& c, unsigned seed) {
  CAPTURE(c.name());
  REQUIRE(c.rheonomic());
  const Index n = c.local_size(), m = c.num_equations();
  const Vector q = testing::random_vector(n, seed, 2.0), lambda = testing::random_vector(m, seed + 1);
  const double t = 0.37, d = 1e-6;
  const Matrix G = jacobian_at(c, t, q);
  CHECK(relative(G - testing::central_difference_jacobian([&](const Vector& y) { return value_at(c, t, y); }, q), G) < 1e-8);
  Matrix H = Matrix::Zero(n, n);
  c.add_hessian_contraction_at(t, q, lambda, 1.0, H);
  const Matrix H_fd = testing::central_difference_jacobian(
      [&](const Vector& y) { return Vector(jacobian_at(c, t, y).transpose() * lambda); }, q);
  CHECK(relative(H - H_fd, H_fd) < 1e-8);
  const Vector g_t = rate_at(c, t, q), g_t_fd = (value_at(c, t + d, q) - value_at(c, t - d, q)) / (2 * d);
  CHECK(relative(g_t - g_t_fd, g_t_fd) < 1e-8);
  const Matrix G_t = rate_jacobian_at(c, t, q);
  CHECK(relative(G_t - testing::central_difference_jacobian([&](const Vector& y) { return rate_at(c, t, y); }, q), G_t) < 1e-8);
  Matrix H_t = Matrix::Zero(n, n);
  c.add_rate_hessian_contraction(t, q, lambda, 1.0, H_t);
  const Matrix H_t_fd = testing::central_difference_jacobian(
      [&](const Vector& y) { return Vector(rate_jacobian_at(c, t, y).transpose() * lambda); }, q);
  CHECK(relative(H_t - H_t_fd, H_t_fd) < 1e-8);
  // The discrete gradient across a step in q and t: Gbar (q_b - q_a) + dbar = g(q_b, t_b) - g(q_a, t_a).
  const Vector q_b = q + testing::random_vector(n, seed + 2, 0.3);
  const double t_b = t + 0.05;
  Matrix Gbar(m, n);
  Vector dbar(m);
  c.calc_discrete_gradient_at(t, t_b, q, q_b, Gbar);
  c.calc_discrete_time_difference(t, t_b, q, q_b, dbar);
  const Vector jump = value_at(c, t_b, q_b) - value_at(c, t, q);
  CHECK(relative(Gbar * (q_b - q) + dbar - jump, jump) < 1e-13);
  Matrix K = Matrix::Zero(n, n);
  c.add_discrete_gradient_contraction_jacobian_at(t, t_b, q, q_b, lambda, 1.0, K);
  const Matrix K_fd = testing::central_difference_jacobian(
      [&](const Vector& y) {
        Matrix Gbar_y(m, n);
        c.calc_discrete_gradient_at(t, t_b, q, y, Gbar_y);
        return Vector(Gbar_y.transpose() * lambda);
      },
      q_b);
  CHECK(relative(K - K_fd, K_fd) < 1e-8);
  // The time-free functions are those at t = 0.
  CHECK(value_of(c, q) == value_at(c, 0.0, q));
}

}  // namespace

TEST_CASE("driven joints and the prescribed point: derivatives in q and t, and the discrete gradient identity in (q, t)") {
  const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2}), s = vec({0.8, 0.6}), t = vec({-0.3, 1.0});
  check_rheonomic_derivatives(*make_driven_revolute_planar("rev2", A2, Y_a, B2, Y_b, wobble), 11);
  check_rheonomic_derivatives(*make_driven_revolute_planar_to_ground("rev2g", Y_a, B2, Y_b, wobble), 12);
  const Vector X_a = vec({0.1, 0.2, -0.3}), X_b = vec({-0.2, 0.0, 0.4}), axis = vec({0.3, -0.5, 0.8});
  check_rheonomic_derivatives(*make_driven_revolute("rev3", A3, X_a, axis, B3, X_b, vec({0, 0, 1}), wobble), 13);
  check_rheonomic_derivatives(*make_driven_revolute_to_ground("rev3g", X_a, axis, B3, X_b, axis, wobble), 14);
  check_rheonomic_derivatives(*make_driven_prismatic_planar("pri2", A2, Y_a, s, B2, Y_b, t, wobble), 15);
  check_rheonomic_derivatives(*make_driven_prismatic_planar_to_ground("pri2g", Y_a, s, B2, Y_b, t, wobble), 16);
  const JointFrame frame_a{X_a, axis, vec({1, 0, 0})}, frame_b{X_b, vec({0, 1, 0}), vec({0, 0, 1})};
  check_rheonomic_derivatives(*make_driven_prismatic("pri3", A3, frame_a, B3, frame_b, wobble), 17);
  check_rheonomic_derivatives(*make_driven_prismatic_to_ground("pri3g", frame_a, B3, frame_b, wobble), 18);
  check_rheonomic_derivatives(*make_prescribed_point("pt2", B2, Y_b, {wobble, RampProfile{0.5, 1.0}}), 19);
  check_rheonomic_derivatives(
      *make_prescribed_point("pt3", B3, X_b, {wobble, ConstantProfile{2.0}, TableProfile{{0.0, 1.0}, {0.0, 3.0}}}), 20);
  const BodyRef m = body(0, BodyKind::point_mass2d, "m");
  check_rheonomic_derivatives(*make_prescribed_point("pt-mass", m, Vector::Zero(2), {wobble, wobble}), 21);
}

TEST_CASE("a planar driven revolute joint: its drive row is sin(theta - f(t)), its other rows the revolute's") {
  const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2});
  const auto driven = make_driven_revolute_planar("crank", A2, Y_a, B2, Y_b, wobble);
  const auto plain = make_revolute_planar("hinge", A2, Y_a, B2, Y_b);
  const Pose pa{vec({1.1, -0.4}), rotation2d(0.8)};
  for (double theta : {-2.5, 0.3, 1.9}) {
    const Pose pb = pose_placing(Y_b, pa.point(Y_a), pa.R * rotation2d(theta));
    const Vector q = stack(pa.q(A2.kinematics), pb.q(B2.kinematics));
    const double t = 0.9;
    const Vector g = value_at(*driven, t, q);
    CHECK(relative(g.head(2) - value_of(*plain, q), g) < 1e-15);
    CHECK(g(2) == doctest::Approx(std::sin(theta - evaluate(wobble, t))).epsilon(1e-14));
  }
}

TEST_CASE("a planar driven prismatic joint and a prescribed point vanish where their profiles put the body") {
  const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2}), s = vec({0.8, 0.6});
  const auto slider = make_driven_prismatic_planar_to_ground("slide", Y_a, s, B2, Y_b, s, wobble);
  const auto point = make_prescribed_point("point", B2, Y_b, {wobble, RampProfile{0.5, 1.0}});
  const double t = 1.7;
  const Vector along = s.normalized();
  const Pose pb = pose_placing(Y_b, Y_a + evaluate(wobble, t) * along, Matrix::Identity(2, 2));
  CHECK(largest_abs(value_at(*slider, t, pb.q(B2.kinematics))) < 1e-15);
  const Pose on_path = pose_placing(Y_b, vec({evaluate(wobble, t), 1.0 + 0.5 * t}), rotation2d(0.4));
  CHECK(largest_abs(value_at(*point, t, on_path.q(B2.kinematics))) < 1e-15);
  CHECK(largest_abs(value_at(*point, t + 0.1, on_path.q(B2.kinematics))) > 1e-3);
}

TEST_CASE("driven joints refuse bad profiles, naming the joint and the profile") {
  const Vector Y = vec({0.0, 0.0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(make_driven_revolute_planar_to_ground("crank", Y, B2, Y, SineProfile{nan, 1.0, 0.0, 0.0}),
                       doctest::Contains("planar driven revolute joint 'crank': the angle profile: a profile value is not finite"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_driven_prismatic_planar_to_ground("ram", Y, vec({1, 0}), B2, Y, vec({1, 0}),
                                                              TableProfile{{0.0, 2.0, 1.0}, {0.0, 1.0, 2.0}}),
                       doctest::Contains("planar driven prismatic joint 'ram': the displacement profile: the table's times "
                                         "must increase strictly"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_prescribed_point("tip", B2, Y, {ConstantProfile{0.0}, RampProfile{nan, 0.0}}),
                       doctest::Contains("prescribed point 'tip': the profile of component y: a profile value is not finite"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_prescribed_point("tip", B2, Y, {ConstantProfile{0.0}}),
                       doctest::Contains("needs one profile per component (2), got 1"), std::invalid_argument);
}
