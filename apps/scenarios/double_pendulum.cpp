/// The planar double pendulum of [Kosmas2020] in Cartesian coordinates: two point masses, two rigid rods
/// (distance joints) g1 = 1/2 (x1^2 + y1^2 - l1^2), g2 = 1/2 ((x2 - x1)^2 + (y2 - y1)^2 - l2^2), gravity in -y.
#include <cmath>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

Vector planar(double x, double y) { return Vector(Eigen::Vector2d(x, y)); }

ModelDescription describe(const ParameterValues& p) {
  const double l1 = p.at("l1"), l2 = p.at("l2");
  const double a1 = p.at("theta1_0"), a2 = p.at("theta2_0"), w1 = p.at("omega1_0"), w2 = p.at("omega2_0");
  const Vector x1 = planar(l1 * std::sin(a1), -l1 * std::cos(a1));
  const Vector x2 = x1 + planar(l2 * std::sin(a2), -l2 * std::cos(a2));
  const Vector v1 = planar(l1 * w1 * std::cos(a1), l1 * w1 * std::sin(a1));
  const Vector v2 = v1 + planar(l2 * w2 * std::cos(a2), l2 * w2 * std::sin(a2));
  ModelDescription d;
  d.bodies = {PointMassDescription{"mass1", p.at("m1"), x1, v1}, PointMassDescription{"mass2", p.at("m2"), x2, v2}};
  JointDescription rod1{"rod1", &joint_kinds::distance, {"", planar(0, 0), {}, {}}, {"mass1", {}, {}, {}}, {l1}};
  JointDescription rod2{"rod2", &joint_kinds::distance, {"mass1", {}, {}, {}}, {"mass2", {}, {}, {}}, {l2}};
  d.joints = {rod1, rod2};
  d.forces = {GravityDescription{{}, planar(0, -p.at("gravity"))}};
  return d;
}

}  // namespace

Scenario double_pendulum_scenario() {
  const ParameterRange positive = ParameterRange::positive();
  return {"double-pendulum",
          "Kosmas2020: planar double pendulum in Cartesian coordinates (every stepper)",
          {.h = 0.01, .t_end = 1.0},  // 100 steps, as in [Kosmas2020]
          {{"m1", 1.0, "mass 1", {}, positive},
           {"m2", 1.0, "mass 2", {}, positive},
           {"l1", 1.0, "length of rod 1", {}, positive},
           {"l2", 1.0, "length of rod 2", {}, positive},
           {"gravity", 9.81, "gravitational acceleration in -y"},
           {"theta1_0", M_PI / 2, "initial angle of rod 1 from the downward vertical (our choice: horizontal)"},
           {"theta2_0", M_PI / 2, "initial angle of rod 2 from the downward vertical (our choice: horizontal)"},
           {"omega1_0", 0.0, "initial angular velocity of rod 1"},
           {"omega2_0", 0.0, "initial angular velocity of rod 2"}},
          describe};
}

}  // namespace noether
