/// The scenario "top": the gyroscopic top of [KinonBetschSchneider2023, Sec. 5.1], parameters as in
/// the paper.
#include <noether/apps/scenarios/top.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/apps/scenarios/body_probe.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/format.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/spherical.hpp>

namespace noether {

double steady_precession_spin_rate(const GyroscopicTopParameters& p) {
  const double m = p.mass, l = p.tip_distance, J1 = p.transverse_inertia, J3 = p.axial_inertia;
  const double wp = p.precession_rate;
  return m * p.gravity * l / (J3 * wp) + (J1 + m * l * l - J3) / J3 * wp * std::cos(p.tilt);
}

double steady_precession_height(const GyroscopicTopParameters& p) { return p.tip_distance * std::cos(p.tilt); }

Model build_gyroscopic_top(const GyroscopicTopParameters& p) {
  if (!(p.tip_distance > 0.0))
    throw std::invalid_argument("top: the tip distance l must be > 0, got " + format_number(p.tip_distance));
  if (p.precession_rate == 0.0)
    throw std::invalid_argument("top: steady precession needs a precession rate omega_p != 0 (eq. 66 divides by it)");
  const RigidBodyProperties properties{
      p.mass, Eigen::Vector3d::Zero(),
      Eigen::Vector3d(p.transverse_inertia, p.transverse_inertia, p.axial_inertia).asDiagonal()};
  const Eigen::Matrix3d R0 = Eigen::AngleAxisd(p.tilt, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const Eigen::Vector3d d3 = R0.col(2), centre = p.tip_distance * d3;
  const Eigen::Vector3d omega0 = p.precession_rate * Eigen::Vector3d::UnitZ() + steady_precession_spin_rate(p) * d3;

  Mechanism mechanism;
  const BodyRef top = mechanism.add_rigid_body("top", properties, {centre, R0}, {omega0.cross(centre), omega0});
  mechanism.add(make_spherical_to_ground("tip", Vector::Zero(3), top, Vector(Eigen::Vector3d(0, 0, -p.tip_distance))));
  mechanism.add(std::make_shared<Gravity>("top.gravity", top, p.mass, Vector::Zero(3),
                                          Vector(Eigen::Vector3d(0, 0, -p.gravity))));
  Model model;
  model.probes.push_back(body_point_probe("com", mechanism.system(), top, Vector::Zero(3)));
  // Gravity along -z and the tip held at the origin: rotations about the vertical through the tip
  // leave every element unchanged, so J_z about the origin is kept.
  model.conserved_momenta.angular[2] = true;
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  return model;
}

namespace {

Model build(const ParameterValues& values) {
  return build_gyroscopic_top({.mass = values.at("m"),
                               .transverse_inertia = values.at("J1"),
                               .axial_inertia = values.at("J3"),
                               .tip_distance = values.at("l"),
                               .tilt = values.at("alpha0"),
                               .precession_rate = values.at("omega_p"),
                               .gravity = values.at("gravity")});
}

}  // namespace

Scenario top_scenario() {
  const GyroscopicTopParameters paper;
  return {"top",
          "KinonBetschSchneider2023 Sec. 5.1: gyroscopic top in steady precession, tip fixed by a spherical joint (every stepper)",
          {.h = 0.002, .t_end = 2.0},  // [KinonBetschSchneider2023] Sec. 5.1
          {{"m", paper.mass, "mass"},
           {"J1", paper.transverse_inertia, "J1 = J2, transverse moment of inertia about the centre of mass"},
           {"J3", paper.axial_inertia, "axial moment of inertia"},
           {"l", paper.tip_distance, "distance from the tip (fixed at the origin) to the centre of mass"},
           {"alpha0", paper.tilt, "initial tilt of the symmetry axis about e1"},
           {"omega_p", paper.precession_rate,
            "precession rate; the spin rate follows from KinonBetschSchneider2023 eq. (66) for steady precession"},
           {"gravity", paper.gravity, "gravitational acceleration in -z"}},
          build};
}

}  // namespace noether
