/// The planar double pendulum of [Kosmas2020] in Cartesian coordinates: two point masses, two rigid rods
/// g1 = 1/2 (x1^2 + y1^2 - l1^2), g2 = 1/2 ((x2 - x1)^2 + (y2 - y1)^2 - l2^2), gravity in -y.
#include <cmath>

#include <noether/apps/scenarios/planar_rod.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>

namespace noether {
namespace {

/// V = m g y of one planar point.
PotentialFunction uniform_gravity(double m, double g) {
  PotentialFunction f;
  f.nonlinearity = Nonlinearity::linear;
  f.energy = [=](ConstVectorRef q) { return m * g * q(1); };
  f.gradient = [=](ConstVectorRef) { return Vector(Eigen::Vector2d(0.0, m * g)); };
  f.hessian = [](ConstVectorRef) { return Matrix(Matrix::Zero(2, 2)); };
  return f;
}

Model build(const ParameterValues& p) {
  const double m1 = p.at("m1"), m2 = p.at("m2"), l1 = p.at("l1"), l2 = p.at("l2"), g = p.at("gravity");
  auto system = std::make_unique<System>();
  const BlockId mass1 = system->add_block("mass1", {"x", "y"});
  const BlockId mass2 = system->add_block("mass2", {"x", "y"});
  system->add(std::make_shared<ConstantInertia>("inertia1", std::vector{mass1}, Matrix(m1 * Matrix::Identity(2, 2))));
  system->add(std::make_shared<ConstantInertia>("inertia2", std::vector{mass2}, Matrix(m2 * Matrix::Identity(2, 2))));
  system->add(std::make_shared<FunctionPotential>("gravity1", std::vector{mass1}, 2, uniform_gravity(m1, g)));
  system->add(std::make_shared<FunctionPotential>("gravity2", std::vector{mass2}, 2, uniform_gravity(m2, g)));
  system->add(std::make_shared<FunctionConstraint>("rod1", std::vector{mass1}, 2, planar_rod_constraint(l1, true)));
  system->add(std::make_shared<FunctionConstraint>("rod2", std::vector{mass1, mass2}, 4, planar_rod_constraint(l2, false)));

  const double a1 = p.at("theta1_0"), a2 = p.at("theta2_0"), w1 = p.at("omega1_0"), w2 = p.at("omega2_0");
  Model model;
  model.initial.q = Vector(4);
  model.initial.q << l1 * std::sin(a1), -l1 * std::cos(a1), l1 * std::sin(a1) + l2 * std::sin(a2),
      -l1 * std::cos(a1) - l2 * std::cos(a2);
  model.initial.v = Vector(4);
  model.initial.v << l1 * w1 * std::cos(a1), l1 * w1 * std::sin(a1), l1 * w1 * std::cos(a1) + l2 * w2 * std::cos(a2),
      l1 * w1 * std::sin(a1) + l2 * w2 * std::sin(a2);
  model.system = std::move(system);
  return model;
}

}  // namespace

Scenario double_pendulum_scenario() {
  return {"double-pendulum",
          "Kosmas2020: planar double pendulum in Cartesian coordinates (every stepper)",
          {.h = 0.01, .t_end = 1.0},  // 100 steps, as in [Kosmas2020]
          {{"m1", 1.0, "mass 1"},
           {"m2", 1.0, "mass 2"},
           {"l1", 1.0, "length of rod 1"},
           {"l2", 1.0, "length of rod 2"},
           {"gravity", 9.81, "gravitational acceleration in -y"},
           {"theta1_0", M_PI / 2, "initial angle of rod 1 from the downward vertical (our choice: horizontal)"},
           {"theta2_0", M_PI / 2, "initial angle of rod 2 from the downward vertical (our choice: horizontal)"},
           {"omega1_0", 0.0, "initial angular velocity of rod 1"},
           {"omega2_0", 0.0, "initial angular velocity of rod 2"}},
          build};
}

}  // namespace noether
