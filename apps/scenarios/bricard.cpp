/// The Bricard linkage (IFToMM benchmark A04): five uniform rods and six revolute joints in a
/// closed loop through P1 = (0,0,0), P2 = (1,0,0), P3 = (1,-1,0), P4 = (1,-1,1), P5 = (0,-1,1),
/// P6 = (0,0,1) (rod i from P_i to P_{i+1}, the ground closing the loop from P6 to P1), with the
/// hinge axes y, z, x, y, z, x at P1 ... P6. Gruebler's count gives 6 (5 - 1) - 5 x 6 = 0 degrees
/// of freedom; the linkage has one: one constraint equation depends on the others in every
/// configuration of its motion. At rest, gravity in -y.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

/// An orthonormal frame whose first axis is the unit vector u (det +1).
Eigen::Matrix3d frame_along(const Eigen::Vector3d& u) {
  const Eigen::Vector3d helper = std::abs(u.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d w1 = (helper - helper.dot(u) * u).normalized(), w2 = u.cross(w1);
  Eigen::Matrix3d R;
  R << u, w1, w2;
  return R;
}

/// prefix followed by k ("rod1", "J2").
std::string numbered(const std::string& prefix, std::size_t k) { return prefix + std::to_string(k); }

ModelDescription describe(const ParameterValues& p) {
  const double l = p.at("l"), m = p.at("m"), b = p.at("side"), g = p.at("gravity");
  const std::array<Eigen::Vector3d, 6> joint{Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(l, 0, 0),
                                             Eigen::Vector3d(l, -l, 0), Eigen::Vector3d(l, -l, l),
                                             Eigen::Vector3d(0, -l, l), Eigen::Vector3d(0, 0, l)};
  const std::array<Eigen::Vector3d, 6> axis{Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX(),
                                            Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX()};
  // A uniform rod of square section b x b along its first director: J about its centre of mass.
  const Eigen::Vector3d principal(m * b * b / 6.0, m * (l * l + b * b) / 12.0, m * (l * l + b * b) / 12.0);
  const RigidBodyProperties rod{m, Eigen::Vector3d::Zero(), principal.asDiagonal()};
  const Vector start = Vector(Eigen::Vector3d(-l / 2, 0, 0)), end = Vector(Eigen::Vector3d(l / 2, 0, 0));
  ModelDescription d;
  std::array<Eigen::Matrix3d, 5> frames;
  for (std::size_t i = 0; i < 5; ++i) {
    frames[i] = frame_along((joint[i + 1] - joint[i]).normalized());
    d.bodies.push_back(RigidBodyDescription{numbered("rod", i + 1), rod, {0.5 * (joint[i] + joint[i + 1]), frames[i]}, {}});
  }
  const auto local = [&](std::size_t i, const Eigen::Vector3d& world) { return Vector(frames[i].transpose() * world); };
  d.joints.push_back({"J1", &joint_kinds::revolute, {"", Vector(joint[0]), Vector(axis[0]), {}},
                      {"rod1", start, local(0, axis[0]), {}}});
  for (std::size_t j = 1; j < 5; ++j)
    d.joints.push_back({numbered("J", j + 1), &joint_kinds::revolute, {numbered("rod", j), end, local(j - 1, axis[j]), {}},
                        {numbered("rod", j + 1), start, local(j, axis[j]), {}}});
  d.joints.push_back({"J6", &joint_kinds::revolute, {"", Vector(joint[5]), Vector(axis[5]), {}},
                      {"rod5", end, local(4, axis[5]), {}}});
  d.forces.push_back(GravityDescription{{}, Vector(Eigen::Vector3d(0, -g, 0))});
  d.probes.push_back(PointProbeDescription{"P4", "rod3", end});
  return d;
}

}  // namespace

Scenario bricard_scenario() {
  return {"bricard",
          "IFToMM A04: Bricard linkage, 5 rods and 6 revolute joints with one redundant equation (livens-em, em-ggl)",
          {.h = 0.01, .t_end = 10.0},
          {{"l", 1.0, "length of each rod and of the loop's edges", {}, ParameterRange::positive()},
           {"m", 1.0, "mass of each rod", {}, ParameterRange::positive()},
           {"side", 0.1, "side of each rod's square section", {}, ParameterRange::nonnegative()},
           {"gravity", 9.81, "gravitational acceleration in -y"}},
          describe};
}

}  // namespace noether
