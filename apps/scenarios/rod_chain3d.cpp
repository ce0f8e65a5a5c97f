/// The scenario "rod-chain3d": a hanging chain of slender rods, M singular (livens-em only).
#include <noether/apps/scenarios/rod_chain3d.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/apps/scenarios/body_probe.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/format.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/joint_bodies.hpp>
#include <noether/joints/spherical.hpp>

namespace noether {
namespace {

/// The spin gauge d1 . n = 0 of a rod (n a world direction): one linear equation on the rod's block.
std::shared_ptr<Constraint> make_spin_gauge(const std::string& name, const BodyRef& rod, const Vector& n) {
  const JointBodies bodies(name, JointFamily{"spin gauge", 3, true}, rod);
  return bodies.make_joint({dot_equation(bodies.direction_a(n), bodies.direction_b(Vector::Unit(3, 0)))});
}

Vector vec3(const Eigen::Vector3d& x) { return Vector(x); }

}  // namespace

Model build_rod_chain3d(const RodChainParameters& p) {
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

  Mechanism mechanism;
  for (int k = 1; k <= p.rods; ++k) {
    const std::string name = "rod" + std::to_string(k);
    const Eigen::Vector3d centre = (k - 0.5) * l * R.col(2);
    const BodyRef body = mechanism.add_rigid_body(name, rod, {centre, R}, {chain_rate.cross(centre), rod_rate});
    if (k == 1)
      mechanism.add(make_spherical_to_ground("hang", Vector::Zero(3), body, top_end));
    else
      mechanism.add(
          make_spherical("joint" + std::to_string(k - 1), mechanism.bodies()[k - 2], bottom_end, body, top_end));
    mechanism.add(make_spin_gauge(name + ".gauge", body, vec3(n)));
    mechanism.add(std::make_shared<Gravity>(name + ".gravity", body, p.mass, Vector::Zero(3),
                                            vec3(Eigen::Vector3d(0, 0, -p.gravity))));
  }
  Model model;
  model.probes.push_back(body_point_probe("tip", mechanism.system(), mechanism.bodies().back(), bottom_end));
  // Gravity along -z and the hang at the origin keep J_z about the origin. The spin gauges, not
  // invariant under rotations about z, exert no force: nothing else acts on a rod's spin (no
  // inertia, no potential, no joint sees it), so their multipliers vanish.
  model.conserved_momenta.angular[2] = true;
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  return model;
}

namespace {

Model build(const ParameterValues& values) {
  const double n = values.at("n");
  if (!(n >= 1.0) || n != std::floor(n) || n > 100000.0)
    throw std::invalid_argument("scenario 'rod-chain3d': n must be a whole number of rods from 1 to 100000, got " +
                                format_number(n));
  return build_rod_chain3d({.rods = static_cast<int>(n),
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
          {{"n", static_cast<double>(defaults.rods), "number of rods"},
           {"m", defaults.mass, "mass of each rod"},
           {"l", defaults.length, "length of each rod"},
           {"gravity", defaults.gravity, "gravitational acceleration in -z"},
           {"tilt", defaults.tilt, "initial angle of the straight chain from the downward vertical, in the x-z plane"},
           {"swing_rate", defaults.swing_rate, "initial angular velocity of the chain about y (in-plane swing)"},
           {"whirl_rate", defaults.whirl_rate, "initial angular velocity of the chain about z (out-of-plane motion)"}},
          build};
}

}  // namespace noether
