#pragma once
/// A mechanism with every element kind, for tests of a scheme's kernels.
#include <memory>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/joints/applied_loads.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/joints/revolute_planar.hpp>

namespace noether::testing {

/// A planar bar hinged to the ground at one end, in gravity, pulled by a spring and slowed by an
/// axial damper (C(q)) from its free end to a ground point, and driven by a constant torque
/// (a load that depends on the configuration): every element kind and every kernel path but M(q).
inline Model driven_bar(double torque) {
  Mechanism mechanism;
  const PlanarBodyProperties bar{2.0, Eigen::Vector2d::Zero(), 2.0 / 12.0};
  const BodyRef body = mechanism.add_planar_body("bar", bar, {0.5, 0.0, 0.0}, {0.0, 1.5, 3.0});
  mechanism.add(make_revolute_planar_to_ground("hinge", Vector(Eigen::Vector2d(0.0, 0.0)), body,
                                               Vector(Eigen::Vector2d(-0.5, 0.0))));
  mechanism.add(std::make_shared<Gravity>("gravity", body, 2.0, Vector(Eigen::Vector2d::Zero()),
                                          Vector(Eigen::Vector2d(0.0, -9.81))));
  const ForcePointPair tip_to_anchor(body, Vector(Eigen::Vector2d(0.5, 0.0)), Vector(Eigen::Vector2d(1.5, 0.5)));
  mechanism.add(std::make_shared<PointSpring>("spring", tip_to_anchor, linear_spring_law(30.0, 0.6)));
  mechanism.add(std::make_shared<AxialPointDamper>("damper", tip_to_anchor, 0.4));
  mechanism.add(std::make_shared<BodyTorque>("motor", body, [torque](double) { return Vector::Constant(1, torque); }));
  Model model;
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  return model;
}

}  // namespace noether::testing
