/// The mass matrix derived from (m, c, J_c) against the closed forms of rigid-body mechanics:
///   T = 1/2 m |v_c|^2 + 1/2 omega.(R J_c R^T) omega,   L = m v_c,   J = m x_c x v_c + R J_c R^T omega,
/// with x_c = phi + R c, v_c = phi' + omega x R c (centre of mass position and velocity).
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>
#include <doctest/doctest.h>

#include <noether/bodies/body_state.hpp>
#include <noether/bodies/director_inertia.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/measures.hpp>
#include "support/random_bodies.hpp"

using namespace noether;
using noether::testing::random_rigid_body;
using noether::testing::random_rotation;
using noether::testing::random_vector;

namespace {

double relative_error(double a, double b) { return std::abs(a - b) / std::abs(b); }
double relative_error(const Eigen::Vector3d& a, const Eigen::Vector3d& b) { return (a - b).norm() / b.norm(); }

/// Builds one rigid body from random data and compares T, L, J with the closed forms.
void check_rigid_body_closed_forms(unsigned seed, bool principal, bool offset) {
  const RigidBodyProperties body = random_rigid_body(seed, principal, offset);
  const Pose3d pose{random_vector(3, seed + 1), random_rotation(seed + 2)};
  const Twist3d twist{random_vector(3, seed + 3), 3.0 * random_vector(3, seed + 4)};
  Mechanism mechanism;
  const BodyRef ref = mechanism.add_rigid_body("body", body, pose, twist);
  const State s = mechanism.initial_state();

  const Eigen::Matrix3d& R = pose.rotation;
  const Eigen::Vector3d& w = twist.angular_velocity;
  const Eigen::Vector3d x_c = pose.position + R * body.center_of_mass;
  const Eigen::Vector3d v_c = twist.velocity + w.cross(R * body.center_of_mass);
  const Eigen::Matrix3d J_world = R * body.inertia * R.transpose();
  const double T = 0.5 * body.mass * v_c.squaredNorm() + 0.5 * w.dot(J_world * w);
  const Eigen::Vector3d L = body.mass * v_c;
  const Eigen::Vector3d J = body.mass * x_c.cross(v_c) + J_world * w;

  const System& system = mechanism.system();
  const Momenta of_body = body_momenta(system, ref, s.q, s.v);
  const double T_error = relative_error(kinetic_energy(system, s.q, s.v), T);
  const double L_error = relative_error(of_body.linear, L);
  const double J_error = relative_error(of_body.angular, J);
  MESSAGE("seed ", seed, " principal ", principal, " offset ", offset, ": relative errors T ", T_error, ", L ", L_error,
          ", J ", J_error);
  CHECK(T_error <= 1e-14);
  CHECK(L_error <= 1e-14);
  CHECK(J_error <= 1e-14);
  // The system's momenta (its one body), and J about another point o: J_o = (x_c - o) x L + R J_c R^T omega.
  const Eigen::Vector3d o = random_vector(3, seed + 5);
  const Momenta about_o = momenta(system, s.q, s.v, o);
  CHECK(relative_error(momenta(system, s.q, s.v).angular, J) <= 1e-14);
  CHECK(relative_error(about_o.linear, L) <= 1e-14);
  CHECK(relative_error(about_o.angular, (x_c - o).cross(L) + J_world * w) <= 1e-14);
}

}  // namespace

TEST_CASE("rigid body from (m, c, J_c): kinetic energy and momenta match the closed forms") {
  for (unsigned seed = 100; seed < 400; seed += 100)
    for (bool principal : {true, false})
      for (bool offset : {false, true}) check_rigid_body_closed_forms(seed, principal, offset);
}

TEST_CASE("director mass coefficients: Mbar = [[m, m c^T], [m c, E_c + m c c^T]], E_c = 1/2 tr(J_c) I - J_c") {
  // Principal data at the centre of mass gives the diag(m, E1, E2, E3) of
  // [KinonBetschSchneider2023, eq. (60)], E_i = 1/2(J_j + J_k - J_i).
  RigidBodyProperties body{2.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(3.0, 4.0, 5.0).asDiagonal()};
  Eigen::Matrix4d expected = Eigen::Vector4d(2.0, 3.0, 2.0, 1.0).asDiagonal();
  CHECK((director_mass_coefficients("b", body) - expected).cwiseAbs().maxCoeff() <= 1e-15);
  body.center_of_mass = Eigen::Vector3d(1.0, 0.0, -1.0);
  expected.row(0).tail<3>() << 2.0, 0.0, -2.0;
  expected.col(0).tail<3>() << 2.0, 0.0, -2.0;
  expected.bottomRightCorner<3, 3>() += 2.0 * body.center_of_mass * body.center_of_mass.transpose();
  CHECK((director_mass_coefficients("b", body) - expected).cwiseAbs().maxCoeff() <= 1e-15);

  Mechanism mechanism;
  const BodyRef ref = mechanism.add_rigid_body("b", body);
  Matrix M = Matrix::Zero(12, 12);
  body_inertia(mechanism.system(), ref).add_mass_matrix(Vector::Zero(12), 1.0, M);
  Matrix kron = Matrix::Zero(12, 12);
  for (Index a = 0; a < 4; ++a)
    for (Index b = 0; b < 4; ++b) kron.block(3 * a, 3 * b, 3, 3) = expected(a, b) * Eigen::Matrix3d::Identity();
  CHECK((M - kron).cwiseAbs().maxCoeff() <= 1e-15);
}

TEST_CASE("a slender rod (no inertia about its axis d1) is accepted and has a singular mass matrix") {
  const double m = 1.5, length = 2.0, J = m * length * length / 12.0;
  const RigidBodyProperties rod{m, Eigen::Vector3d::Zero(), Eigen::Vector3d(0.0, J, J).asDiagonal()};
  // E_1 = 1/2 (J + J - 0) = J = int rho X_1^2, E_2 = E_3 = 0: the mass sits on the d1 axis.
  const Eigen::Matrix4d expected = Eigen::Vector4d(m, J, 0.0, 0.0).asDiagonal();
  CHECK((director_mass_coefficients("rod", rod) - expected).cwiseAbs().maxCoeff() <= 1e-15);

  Mechanism mechanism;
  const BodyRef ref = mechanism.add_rigid_body("rod", rod, {Eigen::Vector3d::Zero(), random_rotation(3)});
  Matrix M = Matrix::Zero(12, 12);
  body_inertia(mechanism.system(), ref).add_mass_matrix(Vector::Zero(12), 1.0, M);
  const Vector eigenvalues = Eigen::SelfAdjointEigenSolver<Matrix>(M).eigenvalues();
  CHECK(eigenvalues.head(6).cwiseAbs().maxCoeff() <= 1e-15);  // d2, d3 carry no mass
  CHECK(eigenvalues(6) > 0.0);

  // The same rod given in rotated body axes (non-principal J_c) and with its origin at one end.
  const Eigen::Matrix3d Q = random_rotation(4);
  const RigidBodyProperties rotated{m, Q * Eigen::Vector3d(length / 2, 0.0, 0.0), Q * rod.inertia * Q.transpose()};
  const Matrix Mbar = director_mass_coefficients("rotated rod", rotated);
  CHECK(Eigen::SelfAdjointEigenSolver<Matrix>(Mbar).eigenvalues().head(2).cwiseAbs().maxCoeff() <= 1e-14);
}

TEST_CASE("planar body from (m, c, J_c) and point masses: kinetic energy and momenta match the closed forms") {
  const PlanarBodyProperties body{1.7, Eigen::Vector2d(0.4, -0.3), 0.8};
  const PlanarPose pose{0.5, -1.2, 0.9};
  const PlanarTwist twist{0.3, 0.7, -2.1};
  Mechanism mechanism;
  const BodyRef bar = mechanism.add_planar_body("bar", body, pose, twist);
  const BodyRef p2 = mechanism.add_planar_point_mass("p2", 0.6, Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d(-0.5, 0.25));
  const BodyRef p3 =
      mechanism.add_point_mass("p3", 2.5, Eigen::Vector3d(1.0, -2.0, 0.5), Eigen::Vector3d(0.1, 0.2, -0.3));
  const State s = mechanism.initial_state();
  const System& system = mechanism.system();

  const Eigen::Rotation2Dd R(pose.angle);
  const Eigen::Vector2d Rc = R * body.center_of_mass;
  const Eigen::Vector2d x_c = Eigen::Vector2d(pose.x, pose.y) + Rc;
  const Eigen::Vector2d v_c = Eigen::Vector2d(twist.vx, twist.vy) + twist.omega * Eigen::Vector2d(-Rc.y(), Rc.x());
  const double T_bar = 0.5 * body.mass * v_c.squaredNorm() + 0.5 * body.inertia * twist.omega * twist.omega;
  const double J_bar = body.mass * (x_c.x() * v_c.y() - x_c.y() * v_c.x()) + body.inertia * twist.omega;
  const double T_points = 0.5 * 0.6 * 0.3125 + 0.5 * 2.5 * 0.14;
  CHECK(relative_error(kinetic_energy(system, s.q, s.v), T_bar + T_points) <= 1e-14);
  CHECK(relative_error(body_momenta(system, bar, s.q, s.v).angular, Eigen::Vector3d(0, 0, J_bar)) <= 1e-14);
  CHECK(relative_error(body_momenta(system, bar, s.q, s.v).linear,
                       Eigen::Vector3d(body.mass * v_c.x(), body.mass * v_c.y(), 0)) <= 1e-14);
  // p2 at (1, 2) moving at (-0.5, 0.25): J_z = 0.6 (1 * 0.25 - 2 * (-0.5)).
  const Momenta m2 = body_momenta(system, p2, s.q, s.v);
  CHECK(relative_error(m2.angular, Eigen::Vector3d(0, 0, 0.6 * (0.25 + 1.0))) <= 1e-15);
  CHECK(relative_error(m2.linear, Eigen::Vector3d(-0.3, 0.15, 0)) <= 1e-15);
  const Eigen::Vector3d J_p3 = 2.5 * Eigen::Vector3d(1.0, -2.0, 0.5).cross(Eigen::Vector3d(0.1, 0.2, -0.3));
  CHECK(relative_error(body_momenta(system, p3, s.q, s.v).angular, J_p3) <= 1e-15);
  const Momenta total = momenta(system, s.q, s.v);
  CHECK(relative_error(total.linear,
                       Eigen::Vector3d(body.mass * v_c.x() - 0.3 + 0.25, body.mass * v_c.y() + 0.15 + 0.5, -0.75)) <=
        1e-14);
  CHECK(relative_error(total.angular, Eigen::Vector3d(0, 0, J_bar + 0.6 * 1.25) + J_p3) <= 1e-14);
  // About o = (1, 1, 0): each point's lever arm shrinks by o, the bar's spin J_c omega stays.
  const Eigen::Vector3d o(1.0, 1.0, 0.0);
  const Eigen::Vector3d J_o = Eigen::Vector3d(0, 0, J_bar + 0.6 * 1.25) + J_p3 - o.cross(total.linear);
  CHECK(relative_error(momenta(system, s.q, s.v, o).angular, J_o) <= 1e-14);
}

TEST_CASE("momenta are not defined for a generic mass matrix: the error names the inertia") {
  Mechanism mechanism;
  mechanism.add_point_mass("ball", 1.0, Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0));
  const BlockId extra = mechanism.add_coordinates("extra", {"x"}, Vector::Zero(1), Vector::Ones(1));
  const State s0 = mechanism.initial_state();
  CHECK(inertia_without_momenta(mechanism.system()) == nullptr);
  CHECK(momenta(mechanism.system(), s0.q, s0.v).angular.isApprox(Eigen::Vector3d(0, 0, 1)));
  mechanism.add(std::make_shared<ConstantInertia>("extra.mass", std::vector{extra}, Matrix::Identity(1, 1)));
  const State s = mechanism.initial_state();
  CHECK(inertia_without_momenta(mechanism.system())->name() == "extra.mass");
  CHECK_THROWS_WITH_AS(momenta(mechanism.system(), s.q, s.v), doctest::Contains("inertia 'extra.mass'"),
                       std::invalid_argument);
}

TEST_CASE("director inertia rejects mass coefficients that are no mass distribution") {
  CHECK_THROWS_AS(DirectorInertia("i", BlockId{0}, 3, Matrix(Eigen::Vector2d(1.0, -1.0).asDiagonal())),
                  std::invalid_argument);
  Matrix indefinite(2, 2);
  indefinite << 1.0, 2.0, 2.0, 1.0;
  CHECK_THROWS_AS(DirectorInertia("i", BlockId{0}, 3, indefinite), std::invalid_argument);
  Matrix asymmetric = Matrix::Identity(2, 2);
  asymmetric(0, 1) = 0.5;
  CHECK_THROWS_AS(DirectorInertia("i", BlockId{0}, 2, asymmetric), std::invalid_argument);
  CHECK_THROWS_AS(DirectorInertia("i", BlockId{0}, 4, Matrix::Identity(2, 2)), std::invalid_argument);
  CHECK(DirectorInertia("i", BlockId{0}, 2, Matrix::Identity(3, 3)).local_size() == 6);
}

TEST_CASE("director inertia refuses a subnormal mass coefficient, naming the element, the entry and the value") {
  Matrix coefficients = Matrix::Identity(3, 3);
  coefficients(0, 0) = 1e-320;  // the mass
  CHECK_THROWS_WITH_AS(DirectorInertia("link.inertia", BlockId{0}, 2, coefficients),
                       "inertia 'link.inertia': the mass coefficients Mbar entry (0, 0) must be a normal number, at "
                       "least 2.2250738585072014e-308 (or 0), got 1e-320 (a subnormal value keeps too few digits for "
                       "the equations)",
                       std::invalid_argument);
  coefficients(0, 0) = 1.0;
  coefficients(1, 2) = coefficients(2, 1) = 5e-324;  // the smallest subnormal
  CHECK_THROWS_WITH_AS(DirectorInertia("link.inertia", BlockId{0}, 2, coefficients),
                       doctest::Contains("Mbar entry (2, 1) must be a normal number"), std::invalid_argument);
  coefficients(1, 2) = coefficients(2, 1) = 0.0;
  coefficients(2, 2) = std::numeric_limits<double>::min();
  CHECK(DirectorInertia("link.inertia", BlockId{0}, 2, coefficients).local_size() == 6);
}
