/// [KinonBetsch2023, Sec. 6.1, Table 1]: two masses and two nonlinear springs described by the absolute
/// coordinates x1, q2 and the relative coordinate x2 (elongation of spring 2), so that
/// T = 1/2 m1 v1^2 + 1/2 m2 (v2 + v3)^2 has a singular mass matrix.
#include <cmath>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>

namespace noether {
namespace {

/// V = 1/4 k (x^2 + x^4) of one coordinate.
PotentialFunction quartic_spring(double k) {
  PotentialFunction f;
  f.energy = [k](ConstVectorRef q) { return 0.25 * k * (q(0) * q(0) + std::pow(q(0), 4)); };
  f.gradient = [k](ConstVectorRef q) { return Vector::Constant(1, 0.5 * k * q(0) + k * std::pow(q(0), 3)); };
  f.hessian = [k](ConstVectorRef q) { return Matrix::Constant(1, 1, 0.5 * k + 3.0 * k * q(0) * q(0)); };
  return f;
}

/// g = 1/2 ((q2 - x1)^2 - gap^2) on (x1, q2).
ConstraintFunction gap_constraint(double gap) {
  ConstraintFunction f;
  f.num_equations = 1;
  f.nonlinearity = Nonlinearity::quadratic;
  f.value = [gap](ConstVectorRef q) { return Vector::Constant(1, 0.5 * ((q(1) - q(0)) * (q(1) - q(0)) - gap * gap)); };
  f.jacobian = [](ConstVectorRef q) {
    Matrix G(1, 2);
    G << -(q(1) - q(0)), q(1) - q(0);
    return G;
  };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) {
    Matrix H(2, 2);
    H << 1.0, -1.0, -1.0, 1.0;
    return Matrix(lambda(0) * H);
  };
  return f;
}

Model build(const ParameterValues& p) {
  const double m1 = p.at("m1"), m2 = p.at("m2");
  const double gap = p.at("l10") + p.at("w");
  auto system = std::make_unique<System>();
  const BlockId mass1 = system->add_block("mass1", {"x1"});
  const BlockId mass2 = system->add_block("mass2", {"q2"});
  const BlockId spring2 = system->add_block("spring2", {"x2"});
  Matrix M(3, 3);
  M << m1, 0, 0, 0, m2, m2, 0, m2, m2;
  system->add(std::make_shared<ConstantInertia>("masses", std::vector{mass1, mass2, spring2}, M));
  system->add(std::make_shared<FunctionPotential>("spring1", std::vector{mass1}, 1, quartic_spring(p.at("k1"))));
  system->add(std::make_shared<FunctionPotential>("spring2", std::vector{spring2}, 1, quartic_spring(p.at("k2"))));
  system->add(std::make_shared<FunctionConstraint>("interconnection", std::vector{mass1, mass2}, 2, gap_constraint(gap)));

  Model model;
  model.initial.q = Vector(3);
  model.initial.q << p.at("x1_0"), p.at("x1_0") + gap, p.at("x2_0");
  model.initial.v = Vector(3);
  model.initial.v << p.at("v1_0"), p.at("v1_0"), p.at("v3_0");  // q2' = x1' keeps g' = 0
  model.system = std::move(system);
  return model;
}

}  // namespace

Scenario singular_mass_spring_scenario() {
  return {"singular-mass-spring",
          "KinonBetsch2023 Table 1: mass-spring system with a singular mass matrix (livens-em)",
          {.h = 0.1, .t_end = 10.0},
          {{"m1", 1.0, "mass 1"},
           {"m2", 1.0, "mass 2"},
           {"k1", 1.0, "stiffness of spring 1"},
           {"k2", 3.0, "stiffness of spring 2"},
           {"l10", 1.0, "rest length of spring 1"},
           {"w", 0.1, "width of mass 1"},
           {"x1_0", 0.5, "initial x1 (our choice: the paper does not state it)"},
           {"x2_0", 0.0, "initial x2 (our choice)"},
           {"v1_0", 0.0, "initial x1' = q2' (our choice)"},
           {"v3_0", 1.0, "initial x2' (our choice)"}},
          build};
}

}  // namespace noether
