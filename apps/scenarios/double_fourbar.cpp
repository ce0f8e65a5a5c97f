/// The scenario "double-fourbar": the double four-bar linkage of [KinonBetschSchneider2023,
/// Sec. 5.2], optionally damped.
#include <noether/apps/scenarios/double_fourbar.hpp>

#include <array>
#include <numbers>
#include <string>
#include <vector>

#include <noether/apps/model/model_builder.hpp>

namespace noether {
namespace {

Vector planar(double x, double y) { return Vector(Eigen::Vector2d(x, y)); }

JointDescription revolute(std::string name, std::string a, Vector point_a, std::string b, Vector point_b) {
  return {std::move(name), &joint_kinds::revolute_planar, {std::move(a), std::move(point_a), {}, {}},
          {std::move(b), std::move(point_b), {}, {}}};
}

}  // namespace

ModelDescription double_fourbar_description(const DoubleFourbarParameters& p) {
  const double l = p.length, v0 = p.coupler_speed;
  const PlanarBodyProperties bar{p.mass, Eigen::Vector2d::Zero(), p.mass * l * l / 12.0};
  const Vector bottom = planar(-l / 2, 0.0), top = planar(l / 2, 0.0);

  ModelDescription d;
  const std::array<std::string, 3> bar_names{"B1", "B2", "B3"}, pivot_names{"P1", "P2", "P3"};
  for (std::size_t k = 0; k < 3; ++k) {
    const double x = static_cast<double>(k) * l;
    d.bodies.push_back(PlanarBodyDescription{bar_names[k], bar, {x, l / 2, std::numbers::pi / 2}, {v0 / 2, 0.0, -v0 / l}});
    d.joints.push_back(revolute(pivot_names[k], "", planar(x, 0.0), bar_names[k], bottom));
  }
  d.bodies.push_back(PlanarBodyDescription{"B4", bar, {l / 2, l, 0.0}, {v0, 0.0, 0.0}});
  d.bodies.push_back(PlanarBodyDescription{"B5", bar, {3 * l / 2, l, 0.0}, {v0, 0.0, 0.0}});
  d.joints.push_back(revolute("P4", "B1", top, "B4", bottom));
  d.joints.push_back(revolute("P5.B4", "B2", top, "B4", top));
  d.joints.push_back(revolute("P5.B5", "B2", top, "B5", bottom));
  d.joints.push_back(revolute("P6", "B3", top, "B5", top));
  d.forces.push_back(GravityDescription{{}, planar(0, -p.gravity)});
  if (p.damping != 0.0) {
    d.forces.push_back(DamperDescription{"damper.P1-P5", {"", planar(0, 0), "B4", top}, p.damping});
    d.forces.push_back(DamperDescription{"damper.P2-P6", {"", planar(l, 0), "B5", top}, p.damping});
  }
  d.probes.push_back(PointProbeDescription{"B0", "B1", top});
  return d;
}

Model build_double_fourbar(const DoubleFourbarParameters& p) { return build_model(double_fourbar_description(p)); }

namespace {

ModelDescription describe(const ParameterValues& values) {
  return double_fourbar_description({.mass = values.at("m"),
                               .length = values.at("l"),
                               .gravity = values.at("gravity"),
                               .coupler_speed = values.at("v0"),
                               .damping = values.at("damping")});
}

}  // namespace

Scenario double_fourbar_scenario() {
  const DoubleFourbarParameters paper;
  return {
      "double-fourbar",
      "KinonBetschSchneider2023 Sec. 5.2: double four-bar linkage through singular configurations, optional dampers (every stepper)",
      {.h = 1e-3, .t_end = 10.0},  // [KinonBetschSchneider2023] Sec. 5.2
      {{"m", paper.mass, "mass of each bar", {}, ParameterRange::positive()},
       {"l", paper.length, "length of each bar and spacing of the ground pivots", {}, ParameterRange::positive()},
       {"gravity", paper.gravity, "gravitational acceleration in -y"},
       {"v0", paper.coupler_speed, "initial velocity of the coupler bars in +x (grounded bars upright)"},
       {"damping", paper.damping, "eta of the dampers P1-P5 and P2-P6 (0: none; KinonBetschSchneider2023 uses 0.5)", {},
        ParameterRange::nonnegative()}},
      describe};
}

}  // namespace noether
