#include <doctest/doctest.h>

#include <Eigen/Geometry>

#include "support/force_checks.hpp"
#include <noether/joints/applied_loads.hpp>

using namespace noether;
using namespace noether::testing;

namespace {

const BodyRef body{BlockId{0}, BodyKinematics(BodyKind::director3d), "top"};
const BodyRef bar{BlockId{0}, BodyKinematics(BodyKind::planar_director), "bar"};

Vector load_of(const ExternalLoad& load, double t, const Vector& q) {
  Vector f = Vector::Zero(q.size());
  load.add_generalized_force(t, q, 1.0, f);
  return f;
}

Matrix load_jacobian_of(const ExternalLoad& load, double t, const Vector& q) {
  Matrix K = Matrix::Zero(q.size(), q.size());
  load.add_generalized_force_q_jacobian(t, q, 1.0, K);
  return K;
}

/// A rigid motion of a 3D director body: q = (phi, R e_i), v = (phi', omega x R e_i).
struct RigidMotion {
  Vector q, v;
};
RigidMotion rigid_motion(const Eigen::Matrix3d& R, const Eigen::Vector3d& phi, const Eigen::Vector3d& phi_rate,
                         const Eigen::Vector3d& omega) {
  RigidMotion m{Vector(12), Vector(12)};
  m.q << phi, R.col(0), R.col(1), R.col(2);
  m.v << phi_rate, omega.cross(R.col(0)), omega.cross(R.col(1)), omega.cross(R.col(2));
  return m;
}

}  // namespace

TEST_CASE("point force: f = P(X)^T F(t), power F.x'(X), independent of q") {
  const Eigen::Vector3d X(0.2, -0.1, 0.4);
  const PointForce force("push", body, X, [](double t) { return Vector(Eigen::Vector3d(std::sin(t), 2.0, -t)); });
  CHECK_FALSE(force.depends_on_configuration());
  const Vector q = random_vector(12, 1), v = random_vector(12, 2);
  const double t = 0.7;
  const Vector x_rate = body.kinematics.point_map(X) * v;
  CHECK(load_of(force, t, q).dot(v) ==
        doctest::Approx(Eigen::Vector3d(std::sin(t), 2.0, -t).dot(x_rate)).epsilon(1e-14));
  CHECK(load_jacobian_of(force, t, q).isZero(0.0));
  const PointForce wrong("wrong", body, X, [](double) { return Vector(Eigen::Vector2d(1, 0)); });
  CHECK_THROWS_WITH_AS(load_of(wrong, 0.0, q), doctest::Contains("point force 'wrong'"), std::invalid_argument);
}

TEST_CASE("body torque on a 3D director body: Q_{d_i} = 1/2 M x d_i has power M.omega, exact q-derivative") {
  const auto torque = [](double t) { return Vector(Eigen::Vector3d(0.3, -1.2 * t, 2.0)); };
  const BodyTorque load("motor", body, torque);
  const double t = 0.9;
  const Eigen::Vector3d omega(1.5, -0.4, 2.2);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(1.2, Eigen::Vector3d(1, -1, 2).normalized()).toRotationMatrix();
  const RigidMotion m = rigid_motion(R, Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(0.5, 0.1, -0.3), omega);
  const double power = load_of(load, t, m.q).dot(m.v);
  MESSAGE("torque power ", power, ", M.omega ", torque(t).dot(omega));
  CHECK(power == doctest::Approx(torque(t).dot(omega)).epsilon(1e-14));
  CHECK(relative_difference(angular_velocity_map(body.kinematics, m.q) * m.v, omega) < 1e-15);
  const Vector q = random_vector(12, 3);
  const Matrix fd = central_difference_jacobian([&](const Vector& x) { return load_of(load, t, x); }, q);
  CHECK(relative_difference(load_jacobian_of(load, t, q), fd) < 1e-9);
}

TEST_CASE("body torque on a planar director body: Q_{d_i} = 1/2 M R90 d_i has power M omega") {
  const BodyTorque load("motor", bar, [](double t) { return Vector::Constant(1, 1.0 + t); });
  const double alpha = 0.7, omega = -1.3, t = 0.5;
  Vector q(6), v(6);
  q << 0.1, 0.2, std::cos(alpha), std::sin(alpha), -std::sin(alpha), std::cos(alpha);
  v << 0.4, 0.0, -omega * std::sin(alpha), omega * std::cos(alpha), -omega * std::cos(alpha), -omega * std::sin(alpha);
  CHECK(load_of(load, t, q).dot(v) == doctest::Approx((1.0 + t) * omega).epsilon(1e-14));
  const Vector q_random = random_vector(6, 4);
  const Matrix fd = central_difference_jacobian([&](const Vector& x) { return load_of(load, t, x); }, q_random);
  CHECK(relative_difference(load_jacobian_of(load, t, q_random), fd) < 1e-9);
  const BodyRef ball{BlockId{0}, BodyKinematics(BodyKind::point_mass3d), "ball"};
  CHECK_THROWS_AS(BodyTorque("bad", ball, [](double) { return Vector::Zero(3); }), std::invalid_argument);
}
