/// A spatial arm of three uniform links on revolute joints under gravity in -z: the base turns
/// about the vertical z axis on the ground, the shoulder and the elbow pitch about the y axes of
/// the link before them. Each joint has a PD motor (JointActuator) tracking
///   r_i(t) = A_i (1 - cos(omega t)),
/// smooth, at rest at t = 0 with the arm, so the tracking error starts at 0: its size then comes from
/// gravity (steady error ~ torque / kp) and the motion (the PD lag ~ kd r'/kp). At t = 0 the column
/// (link1) stands on the origin, the upper arm (link2) and the forearm (link3) reach along +x from
/// its top. The motors' torques and the tracking errors are the probes "actuator:<joint>_motor" and
/// "tracking_error:<joint>_motor" (ActuatorDescription); "tip" is the end of the forearm.
#include <cmath>
#include <string>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

/// A uniform rod of square section b x b along its body axis `along` (0, 1, 2): J about its centre.
RigidBodyProperties rod(double m, double l, double b, int along) {
  Eigen::Vector3d principal = Eigen::Vector3d::Constant(m * (l * l + b * b) / 12.0);
  principal(along) = m * b * b / 6.0;
  return {m, Eigen::Vector3d::Zero(), principal.asDiagonal()};
}

Vector v3(double x, double y, double z) { return Vector(Eigen::Vector3d(x, y, z)); }

/// r(t) = A (1 - cos(omega t)) as a sine profile: A + (-A) sin(omega t + pi/2).
TimeProfile trajectory(double amplitude, double omega) { return SineProfile{-amplitude, omega, M_PI / 2, amplitude}; }

ModelDescription describe(const ParameterValues& p) {
  const double l1 = p.at("l1"), l2 = p.at("l2"), l3 = p.at("l3"), m = p.at("m"), b = p.at("side");
  const double omega = p.at("omega");
  const Pose3d upright{Eigen::Vector3d(0, 0, l1 / 2), Eigen::Matrix3d::Identity()};
  ModelDescription d;
  d.bodies = {RigidBodyDescription{"link1", rod(m, l1, b, 2), upright, {}},
              RigidBodyDescription{"link2", rod(m, l2, b, 0), {Eigen::Vector3d(l2 / 2, 0, l1), Eigen::Matrix3d::Identity()}, {}},
              RigidBodyDescription{"link3", rod(m, l3, b, 0),
                                   {Eigen::Vector3d(l2 + l3 / 2, 0, l1), Eigen::Matrix3d::Identity()}, {}}};
  const Vector z = v3(0, 0, 1), y = v3(0, 1, 0);
  d.joints = {{"base", &joint_kinds::revolute, {"", v3(0, 0, 0), z, {}}, {"link1", v3(0, 0, -l1 / 2), z, {}}},
              {"shoulder", &joint_kinds::revolute, {"link1", v3(0, 0, l1 / 2), y, {}}, {"link2", v3(-l2 / 2, 0, 0), y, {}}},
              {"elbow", &joint_kinds::revolute, {"link2", v3(l2 / 2, 0, 0), y, {}}, {"link3", v3(-l3 / 2, 0, 0), y, {}}}};
  d.forces = {GravityDescription{{}, v3(0, 0, -p.at("gravity"))}};
  // Hinge angles: about z from the world x axis to link1's d1; about +y (u x w = y for u = z, w = x)
  // from the link before to the link's d3.
  const auto motor = [&](const std::string& joint, HingeDescription hinge) {
    return ActuatorDescription{joint + "_motor", std::move(hinge),
                               PdLawDescription{p.at("kp_" + joint), p.at("kd_" + joint),
                                                trajectory(p.at("amplitude_" + joint), omega)}};
  };
  d.actuators = {motor("base", {"", v3(1, 0, 0), v3(0, 1, 0), "link1", v3(1, 0, 0)}),
                 motor("shoulder", {"link1", z, v3(1, 0, 0), "link2", z}),
                 motor("elbow", {"link2", z, v3(1, 0, 0), "link3", z})};
  d.probes = {PointProbeDescription{"tip", "link3", v3(l3 / 2, 0, 0)}};
  return d;
}

}  // namespace

Scenario robot_arm_scenario() {
  const ParameterRange positive = ParameterRange::positive(), nonnegative = ParameterRange::nonnegative();
  const ParameterRange amplitude = ParameterRange::between(-M_PI / 2, M_PI / 2);
  return {"robot-arm",
          "spatial arm of 3 links on revolute joints under gravity, each with a PD motor tracking A (1 - cos(omega t)) "
          "(every stepper but sem-vi, which takes no actuators)",
          {.h = 0.005, .t_end = 4.0},
          {{"l1", 0.4, "length of the column (link1, vertical)", {}, positive},
           {"l2", 0.5, "length of the upper arm (link2)", {}, positive},
           {"l3", 0.4, "length of the forearm (link3)", {}, positive},
           {"m", 1.0, "mass of each link", {}, positive},
           {"side", 0.05, "side of each link's square section", {}, nonnegative},
           {"gravity", 9.81, "gravitational acceleration in -z"},
           {"omega", M_PI, "angular frequency of the reference trajectories", {}, positive},
           {"amplitude_base", 0.6, "half the base's swing about z: r = A (1 - cos(omega t))", {}, amplitude},
           {"amplitude_shoulder", -0.4, "half the shoulder's swing about +y (< 0 lifts the arm)", {}, amplitude},
           {"amplitude_elbow", 0.5, "half the elbow's swing about +y", {}, amplitude},
           {"kp_base", 1000.0, "base motor's position gain, N m/rad", {}, nonnegative},
           {"kd_base", 50.0, "base motor's rate gain, N m s/rad", {}, nonnegative},
           {"kp_shoulder", 2000.0, "shoulder motor's position gain, N m/rad", {}, nonnegative},
           {"kd_shoulder", 60.0, "shoulder motor's rate gain, N m s/rad", {}, nonnegative},
           {"kp_elbow", 500.0, "elbow motor's position gain, N m/rad", {}, nonnegative},
           {"kd_elbow", 10.0, "elbow motor's rate gain, N m s/rad", {}, nonnegative}},
          describe};
}

}  // namespace noether
