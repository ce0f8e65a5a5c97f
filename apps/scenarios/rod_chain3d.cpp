/// The scenario "rod-chain3d": a hanging chain of slender rods, M singular (livens-em only).
#include <noether/apps/scenarios/rod_chain3d.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/format.hpp>

namespace noether {
namespace {

Vector vec3(const Eigen::Vector3d& x) { return Vector(x); }

}  // namespace

ModelDescription rod_chain3d_description(const RodChainParameters& p) {
  if (p.rods < 1) throw std::invalid_argument("rod-chain3d: needs at least 1 rod, got " + std::to_string(p.rods));
  const Eigen::Vector3d& n = p.gauge_normal;
  if (!n.allFinite() || std::abs(n.norm() - 1.0) > 1e-12)
    throw std::invalid_argument("rod-chain3d: the gauge normal must be a unit vector");
  const double l = p.length;
  const RigidBodyProperties rod{p.mass, Eigen::Vector3d::Zero(),
                                Eigen::Vector3d(p.mass * l * l / 12.0, p.mass * l * l / 12.0, 0.0).asDiagonal()};
  const Eigen::Vector3d d3(std::sin(p.tilt), 0.0, -std::cos(p.tilt));
  if (d3.cross(n).norm() < 0.1)
    throw std::invalid_argument(
        "rod-chain3d: the gauge normal lies (nearly) along the initial rods; the gauge "
        "d1 . n = 0 would not determine d1");
  Eigen::Matrix3d R;
  R.col(0) = d3.cross(n).normalized();
  R.col(1) = d3.cross(R.col(0));
  R.col(2) = d3;
  const Eigen::Vector3d chain_rate(0.0, p.swing_rate, p.whirl_rate);
  // Spin about d3 such that (w x d1).n = 0 for w = Omega + spin d3, using (d3 x d1).n = d2.n != 0.
  const double spin = -chain_rate.cross(R.col(0)).dot(n) / R.col(1).dot(n);
  const Eigen::Vector3d rod_rate = chain_rate + spin * R.col(2);
  const Vector top_end = vec3(Eigen::Vector3d(0, 0, -l / 2)), bottom_end = vec3(Eigen::Vector3d(0, 0, l / 2));

  ModelDescription d;
  std::string previous;
  for (int k = 1; k <= p.rods; ++k) {
    const std::string name = "rod" + std::to_string(k);
    const Eigen::Vector3d centre = (k - 0.5) * l * R.col(2);
    d.bodies.push_back(RigidBodyDescription{name, rod, {centre, R}, {chain_rate.cross(centre), rod_rate}});
    if (k == 1)
      d.joints.push_back({"hang", &joint_kinds::spherical, {"", Vector::Zero(3), {}, {}}, {name, top_end, {}, {}}});
    else
      d.joints.push_back({"joint" + std::to_string(k - 1), &joint_kinds::spherical, {previous, bottom_end, {}, {}},
                          {name, top_end, {}, {}}});
    // The spin gauge d1 . n = 0.
    d.joints.push_back({name + ".gauge", &joint_kinds::perpendicular, {"", {}, vec3(n), {}}, {name, {}, Vector::Unit(3, 0), {}}});
    previous = name;
  }
  d.forces.push_back(GravityDescription{{}, vec3(Eigen::Vector3d(0, 0, -p.gravity))});
  d.probes.push_back(PointProbeDescription{"tip", previous, bottom_end});
  // Gravity along -z and the hang at the origin keep J_z about the origin. The spin gauges, not
  // invariant under rotations about z, exert no force: nothing else acts on a rod's spin (no
  // inertia, no potential, no joint sees it), so their multipliers vanish.
  d.conserved_momenta.angular[2] = true;
  return d;
}

Model build_rod_chain3d(const RodChainParameters& p) { return build_model(rod_chain3d_description(p)); }

namespace {

ModelDescription describe(const ParameterValues& values) {
  return rod_chain3d_description({.rods = static_cast<int>(values.at("n")),
                            .mass = values.at("m"),
                            .length = values.at("l"),
                            .gravity = values.at("gravity"),
                            .tilt = values.at("tilt"),
                            .swing_rate = values.at("swing_rate"),
                            .whirl_rate = values.at("whirl_rate")});
}

}  // namespace

Scenario rod_chain3d_scenario() {
  const RodChainParameters defaults;
  return {"rod-chain3d",
          "hanging 3D chain of slender rods (no axial inertia: M singular) with spherical joints (livens-em only)",
          {.h = 0.01, .t_end = 5.0},
          {{"n", static_cast<double>(defaults.rods), "number of rods", {}, ParameterRange::count(1, 100000)},
           {"m", defaults.mass, "mass of each rod", {}, ParameterRange::positive()},
           {"l", defaults.length, "length of each rod", {}, ParameterRange::positive()},
           {"gravity", defaults.gravity, "gravitational acceleration in -z"},
           {"tilt", defaults.tilt, "initial angle of the straight chain from the downward vertical, in the x-z plane"},
           {"swing_rate", defaults.swing_rate, "initial angular velocity of the chain about y (in-plane swing)"},
           {"whirl_rate", defaults.whirl_rate, "initial angular velocity of the chain about z (out-of-plane motion)"}},
          describe};
}

}  // namespace noether
