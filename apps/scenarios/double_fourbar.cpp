/// The scenario "double-fourbar": the double four-bar linkage of [KinonBetschSchneider2023,
/// Sec. 5.2], optionally damped.
#include <noether/apps/scenarios/double_fourbar.hpp>

#include <array>
#include <numbers>
#include <string>
#include <vector>

#include <noether/apps/scenarios/body_probe.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/joints/force_point_pair.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/revolute_planar.hpp>

namespace noether {
namespace {

Vector planar(double x, double y) { return Vector(Eigen::Vector2d(x, y)); }

}  // namespace

Model build_double_fourbar(const DoubleFourbarParameters& p) {
  const double l = p.length, v0 = p.coupler_speed;
  const PlanarBodyProperties bar{p.mass, Eigen::Vector2d::Zero(), p.mass * l * l / 12.0};
  const Vector bottom = planar(-l / 2, 0.0), top = planar(l / 2, 0.0);

  Mechanism mechanism;
  const std::array<std::string, 3> bar_names{"B1", "B2", "B3"}, pivot_names{"P1", "P2", "P3"};
  std::vector<BodyRef> grounded;
  for (std::size_t k = 0; k < 3; ++k) {
    const double x = static_cast<double>(k) * l;
    grounded.push_back(
        mechanism.add_planar_body(bar_names[k], bar, {x, l / 2, std::numbers::pi / 2}, {v0 / 2, 0.0, -v0 / l}));
    mechanism.add(make_revolute_planar_to_ground(pivot_names[k], planar(x, 0.0), grounded[k], bottom));
  }
  const BodyRef left = mechanism.add_planar_body("B4", bar, {l / 2, l, 0.0}, {v0, 0.0, 0.0});
  const BodyRef right = mechanism.add_planar_body("B5", bar, {3 * l / 2, l, 0.0}, {v0, 0.0, 0.0});
  mechanism.add(make_revolute_planar("P4", grounded[0], top, left, bottom));
  mechanism.add(make_revolute_planar("P5.B4", grounded[1], top, left, top));
  mechanism.add(make_revolute_planar("P5.B5", grounded[1], top, right, bottom));
  mechanism.add(make_revolute_planar("P6", grounded[2], top, right, top));
  for (const BodyRef& body : mechanism.bodies())
    mechanism.add(std::make_shared<Gravity>(body.name + ".gravity", body, p.mass, planar(0, 0), planar(0, -p.gravity)));
  if (p.damping != 0.0) {
    mechanism.add(std::make_shared<PointDamper>("damper.P1-P5", ForcePointPair(left, top, planar(0, 0)), p.damping));
    mechanism.add(std::make_shared<PointDamper>("damper.P2-P6", ForcePointPair(right, top, planar(l, 0)), p.damping));
  }
  Model model;
  model.probes.push_back(body_point_probe("B0", mechanism.system(), grounded[0], top));
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  return model;
}

namespace {

Model build(const ParameterValues& values) {
  return build_double_fourbar({.mass = values.at("m"),
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
      {{"m", paper.mass, "mass of each bar"},
       {"l", paper.length, "length of each bar and spacing of the ground pivots"},
       {"gravity", paper.gravity, "gravitational acceleration in -y"},
       {"v0", paper.coupler_speed, "initial velocity of the coupler bars in +x (grounded bars upright)"},
       {"damping", paper.damping, "eta of the dampers P1-P5 and P2-P6 (0: none; KinonBetschSchneider2023 uses 0.5)"}},
      build};
}

}  // namespace noether
