/// The scenario "top": the gyroscopic top of [KinonBetschSchneider2023, Sec. 5.1], parameters as in
/// the paper.
#include <noether/apps/scenarios/top.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>

#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/format.hpp>

namespace noether {

ConeInertia cone_inertia(const GyroscopicTopParameters& p) {
  const double a = p.height, r = p.radius;
  const double m = p.density * std::numbers::pi * r * r * a / 3.0;
  return {m, 3.0 / 80.0 * m * (4.0 * r * r + a * a), 3.0 / 10.0 * m * r * r, 0.75 * a};
}

double steady_precession_spin_rate(const GyroscopicTopParameters& p) {
  const ConeInertia c = cone_inertia(p);
  const double m = c.mass, l = c.tip_distance, J1 = c.transverse_inertia, J3 = c.axial_inertia;
  const double wp = p.precession_rate;
  return m * p.gravity * l / (J3 * wp) + (J1 + m * l * l - J3) / J3 * wp * std::cos(p.tilt);
}

double steady_precession_height(const GyroscopicTopParameters& p) { return cone_inertia(p).tip_distance * std::cos(p.tilt); }

ModelDescription gyroscopic_top_description(const GyroscopicTopParameters& p) {
  for (const auto& [name, value] : {std::pair{"density", p.density}, {"height", p.height}, {"radius", p.radius}})
    if (!(value > 0.0) || !std::isfinite(value))
      throw std::invalid_argument(std::string("top: the cone's ") + name + " must be > 0, got " + format_number(value));
  if (p.precession_rate == 0.0)
    throw std::invalid_argument("top: steady precession needs a precession rate omega_p != 0 (eq. 66 divides by it)");
  const ConeInertia cone = cone_inertia(p);
  const double l = cone.tip_distance;
  const RigidBodyProperties properties{
      cone.mass, Eigen::Vector3d::Zero(),
      Eigen::Vector3d(cone.transverse_inertia, cone.transverse_inertia, cone.axial_inertia).asDiagonal()};
  const Eigen::Matrix3d R0 = Eigen::AngleAxisd(p.tilt, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const Eigen::Vector3d d3 = R0.col(2), centre = l * d3;
  const Eigen::Vector3d omega0 = p.precession_rate * Eigen::Vector3d::UnitZ() + steady_precession_spin_rate(p) * d3;

  ModelDescription d;
  d.bodies = {RigidBodyDescription{"top", properties, {centre, R0}, {omega0.cross(centre), omega0}}};
  d.joints = {JointDescription{"tip", &joint_kinds::spherical, {"", Vector::Zero(3), {}, {}},
                               {"top", Vector(Eigen::Vector3d(0, 0, -l)), {}, {}}}};
  d.forces = {GravityDescription{{}, Vector(Eigen::Vector3d(0, 0, -p.gravity))}};
  d.probes = {PointProbeDescription{"com", "top", Vector::Zero(3)}};
  // Gravity along -z and the tip held at the origin: rotations about the vertical through the tip
  // leave every element unchanged, so J_z about the origin is kept.
  d.conserved_momenta.angular[2] = true;
  return d;
}

Model build_gyroscopic_top(const GyroscopicTopParameters& p) { return build_model(gyroscopic_top_description(p)); }

namespace {

ModelDescription describe(const ParameterValues& values) {
  return gyroscopic_top_description({.density = values.at("density"),
                                     .height = values.at("height"),
                                     .radius = values.at("radius"),
                                     .tilt = values.at("alpha0"),
                                     .precession_rate = values.at("omega_p"),
                                     .gravity = values.at("gravity")});
}

}  // namespace

Scenario top_scenario() {
  const GyroscopicTopParameters paper;
  const ParameterRange positive = ParameterRange::positive();
  return {"top",
          "KinonBetschSchneider2023 Sec. 5.1: gyroscopic top in steady precession, tip fixed by a spherical joint (every stepper)",
          {.h = 0.002, .t_end = 2.0},  // [KinonBetschSchneider2023] Sec. 5.1
          {{"density", paper.density, "density of the solid cone", {}, positive},
           {"height", paper.height, "height of the cone, tip to base (the centre of mass at 3/4 of it from the tip)", {},
            positive},
           {"radius", paper.radius, "radius of the cone's base", {}, positive},
           {"alpha0", paper.tilt, "initial tilt of the symmetry axis about e1"},
           {"omega_p", paper.precession_rate,
            "precession rate; the spin rate follows from KinonBetschSchneider2023 eq. (66) for steady precession"},
           {"gravity", paper.gravity, "gravitational acceleration in -z"}},
          describe};
}

}  // namespace noether
