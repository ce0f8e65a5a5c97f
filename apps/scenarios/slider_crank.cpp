/// A planar slider-crank whose crank turns at theta = theta0 + omega t: crank (length r) hinged to the
/// ground at the origin; connecting rod (length l) on revolute joints to the crank's tip and to the
/// slider; the slider on a prismatic joint along the world x axis. Crank and rod are uniform bars
/// (J = m L^2/12 about their centres). The slider's position has the closed form
/// x = r cos(theta) + sqrt(l^2 - r^2 sin(theta)^2). The crank's hinge `crank` is either
///   drive = prescribed: a driven revolute joint, theta(t) exactly; its reaction (the torque on the
///     crank, engine/reaction.hpp) is what keeps theta on its profile; or
///   drive = torque: a revolute joint with a motor `crank_motor` under PD control towards
///     theta0 + omega t (JointActuator, pd_law: the error of the hinge angle taken into (-pi, pi], as
///     the crank turns fully), which follows the profile up to its tracking error.
#include <cmath>
#include <stdexcept>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/format.hpp>

namespace noether {
namespace {

constexpr double kPrescribed = 0;  ///< the choice `drive=prescribed`; 1 is `torque`

Vector planar(double x, double y) { return Vector(Eigen::Vector2d(x, y)); }

/// A uniform bar of mass m and length L from `from` to `to` (its centre and angle), moving with
/// the end velocities v_from, v_to (rigid: the angular velocity from their difference).
PlanarBodyDescription bar(const std::string& name, double m, double L, const Eigen::Vector2d& from,
                          const Eigen::Vector2d& to, const Eigen::Vector2d& v_from, const Eigen::Vector2d& v_to) {
  const Eigen::Vector2d centre = 0.5 * (from + to), v_centre = 0.5 * (v_from + v_to), axis = to - from;
  const Eigen::Vector2d dv = v_to - v_from;
  const double omega = (axis.x() * dv.y() - axis.y() * dv.x()) / axis.squaredNorm();
  return {name,
          {m, Eigen::Vector2d::Zero(), m * L * L / 12.0},
          {centre.x(), centre.y(), std::atan2(axis.y(), axis.x())},
          {v_centre.x(), v_centre.y(), omega}};
}

ModelDescription describe(const ParameterValues& p) {
  const double r = p.at("r"), l = p.at("l"), omega = p.at("omega"), theta = p.at("theta0");
  if (!(l > r))
    throw std::invalid_argument("slider-crank: the rod (l = " + format_number(l) + ") must be longer than the crank (r = " +
                                format_number(r) + "), or the slider cannot follow a full turn; set l > r");
  const double root = std::sqrt(l * l - r * r * std::sin(theta) * std::sin(theta));
  const double x = r * std::cos(theta) + root;
  const double x_rate = -r * omega * std::sin(theta) * (1.0 + r * std::cos(theta) / root);
  const Eigen::Vector2d tip(r * std::cos(theta), r * std::sin(theta)), tip_rate = omega * Eigen::Vector2d(-tip.y(), tip.x());
  const Eigen::Vector2d slider(x, 0.0), slider_rate(x_rate, 0.0);
  ModelDescription d;
  d.bodies = {bar("crank", p.at("m_crank"), r, Eigen::Vector2d::Zero(), tip, Eigen::Vector2d::Zero(), tip_rate),
              bar("rod", p.at("m_rod"), l, tip, slider, tip_rate, slider_rate),
              PlanarBodyDescription{"slider", {p.at("m_slider"), Eigen::Vector2d::Zero(), p.at("slider_inertia")},
                                    {x, 0.0, 0.0}, {x_rate, 0.0, 0.0}}};
  d.joints = {{"crank_rod", &joint_kinds::revolute_planar, {"crank", planar(r / 2, 0), {}, {}},
               {"rod", planar(-l / 2, 0), {}, {}}},
              {"rod_slider", &joint_kinds::revolute_planar, {"rod", planar(l / 2, 0), {}, {}},
               {"slider", planar(0, 0), {}, {}}},
              {"guide", &joint_kinds::prismatic_planar, {"", planar(0, 0), planar(1, 0), {}},
               {"slider", planar(0, 0), planar(1, 0), {}}}};
  const JointSide ground{"", planar(0, 0), {}, {}}, crank_end{"crank", planar(-r / 2, 0), {}, {}};
  const RampProfile turning{omega, theta};
  if (p.at("drive") == kPrescribed) {
    d.drives = {DriveDescription{"crank", DriveKind::revolute, ground, crank_end, {turning}}};
  } else {
    d.joints.push_back({"crank", &joint_kinds::revolute_planar, ground, crank_end});
    // The hinge angle from the world x axis to the crank's d1 (along the crank, from the pivot).
    d.actuators = {ActuatorDescription{"crank_motor", HingeDescription{"", {}, {}, "crank", {}},
                                       PdLawDescription{p.at("kp"), p.at("kd"), turning}}};
  }
  if (p.at("gravity") != 0.0) d.forces = {GravityDescription{{}, planar(0, -p.at("gravity"))}};
  d.probes = {PointProbeDescription{"slider", "slider", planar(0, 0)}};
  return d;
}

}  // namespace

Scenario slider_crank_scenario() {
  const ParameterRange positive = ParameterRange::positive(), nonnegative = ParameterRange::nonnegative();
  return {"slider-crank",
          "planar slider-crank, the crank turning at theta = theta0 + omega t: prescribed (driven revolute joint) or "
          "by a PD motor (--set drive=torque) (every stepper but sem-vi)",
          {.h = 0.01, .t_end = 1.0},  // one turn at omega = 2 pi
          {{"r", 0.1, "crank length (m)", {}, positive},
           {"l", 0.3, "connecting rod length (m), > r", {}, positive},
           {"m_crank", 1.0, "crank mass (uniform bar, kg)", {}, positive},
           {"m_rod", 1.0, "connecting rod mass (uniform bar, kg)", {}, positive},
           {"m_slider", 1.0, "slider mass (kg)", {}, positive},
           {"slider_inertia", 1e-3, "slider's moment of inertia (kg m^2; it does not turn)", {}, positive},
           {"omega", 2 * M_PI, "crank angular velocity (rad/s)"},
           {"theta0", 0.0, "crank angle at t = 0 (rad, from the x axis)"},
           {"gravity", 0.0, "gravitational acceleration in -y (m/s^2)"},
           {"drive", kPrescribed,
            "how the crank turns: prescribed (its angle theta0 + omega t, a driven revolute joint) or torque (a motor "
            "crank_motor under PD control towards theta0 + omega t, gains kp and kd)",
            {"prescribed", "torque"}},
           {"kp", 400.0, "drive=torque: the motor's position gain (N m/rad)", {}, nonnegative},
           {"kd", 4.0, "drive=torque: the motor's rate gain (N m s/rad)", {}, nonnegative}},
          describe};
}

}  // namespace noether
