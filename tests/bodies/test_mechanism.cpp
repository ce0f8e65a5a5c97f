#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include <noether/bodies/body_state.hpp>
#include <noether/bodies/director_constraint.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/measures.hpp>
#include "support/random_bodies.hpp"

using namespace noether;
using noether::testing::random_rigid_body;
using noether::testing::random_rotation;
using noether::testing::random_vector;

namespace {

/// Checks that `add` throws std::invalid_argument whose message names the body and contains
/// `fragment`, and that the mechanism is left unchanged.
void check_rejected(const std::function<void(Mechanism&)>& add, const std::string& body, const std::string& fragment) {
  Mechanism mechanism;
  std::string message;
  try {
    add(mechanism);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  MESSAGE(message);
  CHECK(message.find("'" + body + "'") != std::string::npos);
  CHECK(message.find(fragment) != std::string::npos);
  CHECK(mechanism.system().num_coordinates() == 0);
  CHECK(mechanism.initial_state().q.size() == 0);
}

}  // namespace

TEST_CASE("mechanism: blocks, names, elements and the initial state of each kind of body") {
  Mechanism mechanism;
  const Pose3d pose{Eigen::Vector3d(1, 2, 3), random_rotation(1)};
  const Twist3d twist{Eigen::Vector3d(0.1, 0.2, 0.3), Eigen::Vector3d(-1, 0.5, 2)};
  const BodyRef rotor = mechanism.add_rigid_body("rotor", random_rigid_body(2, false, true), pose, twist);
  const BodyRef bar =
      mechanism.add_planar_body("bar", {1.0, Eigen::Vector2d(0.5, 0), 1.0 / 12}, {0.1, 0.2, 0.3}, {1, 2, 3});
  const BodyRef point = mechanism.add_point_mass("point", 1.0, Eigen::Vector3d(4, 5, 6));
  const BodyRef planar_point = mechanism.add_planar_point_mass("planar point", 1.0, Eigen::Vector2d(7, 8));
  const System& system = mechanism.system();

  CHECK(rotor.kinematics.kind() == BodyKind::director3d);
  CHECK(bar.kinematics.kind() == BodyKind::planar_director);
  CHECK(point.kinematics.kind() == BodyKind::point_mass3d);
  CHECK(planar_point.kinematics.kind() == BodyKind::point_mass2d);
  CHECK(mechanism.bodies().size() == 4);
  CHECK(mechanism.bodies()[1].name == "bar");
  CHECK(system.num_coordinates() == 12 + 6 + 3 + 2);
  CHECK(system.num_multipliers() == 6 + 3);
  CHECK(system.coordinate_label(0) == "rotor.phi.x");
  CHECK(system.coordinate_label(11) == "rotor.d3.z");
  CHECK(system.coordinate_label(16) == "bar.d2.x");
  CHECK(system.coordinate_label(20) == "point.z");
  CHECK(system.coordinate_label(22) == "planar point.y");
  CHECK(system.multiplier_label(8) == "constraint 'bar.orthonormality' row 2");
  CHECK(system.inertias().size() == 4);

  const State s = mechanism.initial_state();
  CHECK(s.q.size() == 23);
  CHECK(s.v.size() == 23);
  Vector g(system.num_multipliers()), gv(system.num_multipliers());
  calc_constraint_values(system, s.q, g);
  calc_velocity_constraint_values(system, s.q, s.v, gv);
  CHECK(max_abs(g) <= 1e-15);
  CHECK(max_abs(gv) <= 1e-15);  // d_i' = omega x d_i is tangent to the orthonormality constraints

  // Readers: R, body-fixed points and their velocities.
  CHECK((rotation(system, rotor, s.q) - pose.rotation).cwiseAbs().maxCoeff() == 0.0);
  const Eigen::Vector3d X(0.3, -0.7, 1.1);
  const Eigen::Vector3d x = pose.position + pose.rotation * X;
  const Eigen::Vector3d x_dot = twist.velocity + twist.angular_velocity.cross(pose.rotation * X);
  CHECK((point_position(system, rotor, s.q, X) - x).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK((point_velocity(system, rotor, s.v, X) - x_dot).cwiseAbs().maxCoeff() <= 1e-14);
  const Eigen::Vector2d bar_end = Eigen::Vector2d(0.1, 0.2) + Eigen::Rotation2Dd(0.3) * Eigen::Vector2d(1.0, 0.0);
  CHECK((point_position(system, bar, s.q, Eigen::Vector2d(1.0, 0.0)) - bar_end).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK((rotation(system, bar, s.q) - Eigen::Rotation2Dd(0.3).toRotationMatrix()).cwiseAbs().maxCoeff() == 0.0);
  CHECK((point_position(system, point, s.q, Eigen::Vector3d::Zero()) - Eigen::Vector3d(4, 5, 6)).norm() == 0.0);
  CHECK_THROWS_AS(rotation(system, point, s.q), std::invalid_argument);
}

TEST_CASE("mechanism: add() passes joints and forces through, release_system() hands the system over") {
  Mechanism mechanism;
  const BodyRef a = mechanism.add_planar_point_mass("a", 1.0, Eigen::Vector2d(1, 0));
  mechanism.add(std::make_shared<DirectorOrthonormality>(
      "extra", mechanism.add_coordinates("frame", {"0", "1", "2", "3", "4", "5"}, Vector::Zero(6), Vector::Ones(6)),
      2));
  CHECK(mechanism.system().num_multipliers() == 3);
  CHECK(mechanism.initial_state().v.tail(6) == Vector::Ones(6));
  CHECK_THROWS_AS(mechanism.add_coordinates("short", {"0"}, Vector::Zero(2), Vector::Zero(1)), std::invalid_argument);
  CHECK_THROWS_AS(mechanism.add_planar_point_mass("a", 1.0, Eigen::Vector2d(0, 0)), std::invalid_argument);

  const State initial = mechanism.initial_state();
  const std::shared_ptr<System> system = mechanism.release_system();
  CHECK(system->num_coordinates() == 8);
  CHECK(initial.q.size() == 8);
  CHECK(body_coordinates(*system, a, initial.q) == Eigen::Vector2d(1, 0));
  CHECK_THROWS_AS(mechanism.system(), std::logic_error);
  CHECK_THROWS_AS(mechanism.add_planar_point_mass("b", 1.0, Eigen::Vector2d(0, 0)), std::logic_error);
}

TEST_CASE("mechanism: invalid physical data and poses are rejected with the body's name") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto rigid = [](RigidBodyProperties p, Pose3d pose = {}) {
    return [=](Mechanism& m) { m.add_rigid_body("wheel", p, pose); };
  };
  const RigidBodyProperties good{2.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(1.0, 1.5, 2.0).asDiagonal()};
  RigidBodyProperties p = good;
  p.mass = 0.0;
  check_rejected(rigid(p), "wheel", "mass is 0");
  p.mass = -1.0;
  check_rejected(rigid(p), "wheel", "mass is -1");
  p.mass = nan;
  check_rejected(rigid(p), "wheel", "mass is nan");
  p = good;
  p.center_of_mass.y() = nan;
  check_rejected(rigid(p), "wheel", "centre of mass");
  p = good;
  p.inertia(0, 1) = 0.1;
  check_rejected(rigid(p), "wheel", "not symmetric (max |J - J^T| = 0.1)");
  p.inertia(1, 0) = 3.0;
  p.inertia(0, 1) = 3.0;
  check_rejected(rigid(p), "wheel", "not positive semi-definite");
  p = good;
  p.inertia = Eigen::Vector3d(1.0, 0.2, 0.3).asDiagonal();
  check_rejected(rigid(p), "wheel", "triangle inequality");
  p = good;
  p.inertia(2, 2) = std::numeric_limits<double>::infinity();
  check_rejected(rigid(p), "wheel", "non-finite");

  Pose3d pose;
  pose.rotation(0, 0) = 1.0 + 1e-9;
  check_rejected(rigid(good, pose), "wheel", "not orthonormal");
  pose.rotation = Eigen::Vector3d(1.0, 1.0, -1.0).asDiagonal();
  check_rejected(rigid(good, pose), "wheel", "reflection");
  check_rejected(rigid(good, Pose3d::from_quaternion(Eigen::Vector3d::Zero(), Eigen::Quaterniond(1.0, 0.1, 0.0, 0.0))),
                 "wheel", "not orthonormal");

  check_rejected(
      [](Mechanism& m) {
        m.add_planar_body("link", {1.0, Eigen::Vector2d::Zero(), -0.1});
      },
      "link", "moment of inertia is -0.1");
  check_rejected(
      [](Mechanism& m) {
        m.add_planar_body("link", {-2.0, Eigen::Vector2d::Zero(), 0.1});
      },
      "link", "mass is -2");
  check_rejected(
      [&](Mechanism& m) {
        m.add_planar_body("link", {1.0, Eigen::Vector2d::Zero(), 0.1}, {0, 0, nan});
      },
      "link", "non-finite");
  check_rejected([](Mechanism& m) { m.add_point_mass("bob", 0.0, Eigen::Vector3d::Zero()); }, "bob", "mass is 0");
  check_rejected([&](Mechanism& m) { m.add_planar_point_mass("bob", 1.0, Eigen::Vector2d(nan, 0)); }, "bob",
                 "non-finite");

  // Borderline but valid data is accepted: a flat plate (J_3 = J_1 + J_2) and a point-like body (J_c = 0).
  Mechanism mechanism;
  mechanism.add_rigid_body("plate", {1.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal()});
  mechanism.add_rigid_body("dot", {1.0, Eigen::Vector3d(1, 0, 0), Eigen::Matrix3d::Zero()});
  mechanism.add_planar_body("planar dot", {1.0, Eigen::Vector2d::Zero(), 0.0});
  const Eigen::Quaterniond unit(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  mechanism.add_rigid_body("quaternion posed", good, Pose3d::from_quaternion(Eigen::Vector3d(1, 0, 0), unit));
  CHECK(mechanism.bodies().size() == 4);
}

TEST_CASE("mechanism: a subnormal mass or moment of inertia is refused with the body's name and the value") {
  // Scene files and scenario parameters refused 1e-320 as a mass; Mechanism took it (docs/reliability.md).
  constexpr double subnormal = 1e-320;
  const double smallest = std::numeric_limits<double>::min();
  const std::string rule = "must be a normal number, at least 2.2250738585072014e-308";
  const std::string got = ", got 1e-320 (a subnormal value keeps too few digits for the equations)";
  const RigidBodyProperties good{2.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(1.0, 1.5, 2.0).asDiagonal()};
  RigidBodyProperties p = good;
  p.mass = subnormal;
  check_rejected([=](Mechanism& m) { m.add_rigid_body("wheel", p); }, "wheel", "the mass " + rule + got);
  p = good;
  p.inertia(1, 1) = subnormal;
  check_rejected([=](Mechanism& m) { m.add_rigid_body("wheel", p); }, "wheel",
                 "the inertia tensor entry (1, 1) " + rule + " (or 0)" + got);
  p = good;
  p.inertia(0, 2) = p.inertia(2, 0) = -subnormal;
  check_rejected([=](Mechanism& m) { m.add_rigid_body("wheel", p); }, "wheel",
                 "the inertia tensor entry (2, 0) " + rule + " in magnitude (or 0), got -1e-320");
  check_rejected([](Mechanism& m) { m.add_planar_body("link", {subnormal, Eigen::Vector2d::Zero(), 0.1}); }, "link",
                 "the mass " + rule + got);
  check_rejected([](Mechanism& m) { m.add_planar_body("link", {1.0, Eigen::Vector2d::Zero(), subnormal}); }, "link",
                 "the moment of inertia " + rule + " (or 0)" + got);
  check_rejected([](Mechanism& m) { m.add_point_mass("bob", subnormal, Eigen::Vector3d::Zero()); }, "bob",
                 "the mass " + rule + got);
  check_rejected([](Mechanism& m) { m.add_planar_point_mass("bob", subnormal, Eigen::Vector2d::Zero()); }, "bob",
                 "the mass " + rule + got);

  // The smallest normal values, and 0 where a moment of inertia may be 0, are taken.
  Mechanism mechanism;
  p = good;
  p.mass = smallest;
  p.inertia(0, 0) = 0.0;
  p.inertia(1, 1) = p.inertia(2, 2) = smallest;
  mechanism.add_rigid_body("tiny", p);
  mechanism.add_planar_body("tiny planar", {smallest, Eigen::Vector2d::Zero(), 0.0});
  mechanism.add_point_mass("tiny bob", smallest, Eigen::Vector3d::Zero());
  CHECK(mechanism.bodies().size() == 3);
}

TEST_CASE("mechanism: a mass or moment of inertia beyond the range of double precision is refused with the body's name and the value") {
  // A scene's mass 1e308 was blamed on the gravity element (its weight m g overflows), a planar
  // moment of inertia 1e308 failed in Newton as "inertia 'bar.inertia' gives a non-finite residual
  // entry", and a rigid body's 1e308 was "the mass matrix has a non-finite entry".
  const std::string got = " must be below 1e+150 in magnitude, got 1e+308: beyond the range of double precision (the "
                          "squares of such values overflow)";
  const RigidBodyProperties good{2.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(1.0, 1.5, 2.0).asDiagonal()};
  RigidBodyProperties p = good;
  p.mass = 1e308;
  check_rejected([=](Mechanism& m) { m.add_rigid_body("wheel", p); }, "wheel", "the mass" + got);
  p = good;
  p.inertia = Eigen::Vector3d::Constant(1e308).asDiagonal();
  check_rejected([=](Mechanism& m) { m.add_rigid_body("wheel", p); }, "wheel", "the inertia tensor entry (0, 0)" + got);
  check_rejected([](Mechanism& m) { m.add_planar_body("link", {1e308, Eigen::Vector2d::Zero(), 0.1}); }, "link",
                 "the mass" + got);
  check_rejected([](Mechanism& m) { m.add_planar_body("link", {1.0, Eigen::Vector2d::Zero(), 1e308}); }, "link",
                 "the moment of inertia" + got);
  check_rejected([](Mechanism& m) { m.add_point_mass("bob", 1e308, Eigen::Vector3d::Zero()); }, "bob", "the mass" + got);

  // Just below the bound is taken.
  Mechanism mechanism;
  mechanism.add_planar_body("heavy", {0.99e150, Eigen::Vector2d::Zero(), 0.99e150});
  CHECK(mechanism.bodies().size() == 1);
}

TEST_CASE("a body's block holds its kind's coordinate names, one per coordinate") {
  for (const BodyKind kind :
       {BodyKind::director3d, BodyKind::planar_director, BodyKind::point_mass2d, BodyKind::point_mass3d}) {
    const BodyKinematics kinematics(kind);
    CHECK(static_cast<Index>(kinematics.coordinate_names().size()) == kinematics.size());
  }
  Mechanism m;
  const BodyRef bar = m.add_planar_body("bar", PlanarBodyProperties{1.0, Eigen::Vector2d::Zero(), 0.1}, PlanarPose{}, PlanarTwist{});
  CHECK(m.system().block(bar.block).coordinate_names == bar.kinematics.coordinate_names());
  CHECK(m.system().coordinate_label(2) == "bar.d1.x");
}
