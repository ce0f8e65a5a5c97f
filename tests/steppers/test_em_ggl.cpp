/// em-ggl on the double pendulum of [Kosmas2020] (the common ground of the steppers): energy
/// exact, both constraint levels at every node, momentum maps, the damper energy balance, and its refusals.
#include <cmath>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/viscous_damper.hpp>
#include <noether/steppers/em_ggl.hpp>

using namespace noether;

namespace {

Model double_pendulum(const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario("double-pendulum");
  return scenario.build(resolve_parameters(scenario, overrides));
}

/// sum_i x_i x p_i (z component) for the planar point masses of the double pendulum.
double angular_momentum(const State& s) {
  return s.q(0) * s.p(1) - s.q(1) * s.p(0) + s.q(2) * s.p(3) - s.q(3) * s.p(2);
}

}  // namespace

TEST_CASE("em-ggl conserves energy and satisfies position and velocity constraints at every step") {
  // Released from 1.0 and 0.5 rad (from horizontal the energy is exactly 0, no scale for a relative test).
  Model model = double_pendulum({{"theta1_0", 1.0}, {"theta2_0", 0.5}});
  EnergyMomentumGgl stepper(*model.system, StepperOptions{});
  State state = model.initial;
  stepper.initialize(state);
  const double energy0 = stepper.conserved_energy(state);
  Vector g(2), gv(2);
  double worst_energy = 0, worst_g = 0, worst_gv = 0;
  for (int n = 0; n < 500; ++n) {
    stepper.step(state, 0.01);
    worst_energy = std::max(worst_energy, std::abs(stepper.conserved_energy(state) - energy0));
    calc_constraint_values(*model.system, state.q, g);
    calc_velocity_constraint_values(*model.system, state.q, state.v, gv);
    worst_g = std::max(worst_g, max_abs(g));
    worst_gv = std::max(worst_gv, max_abs(gv));
  }
  MESSAGE("energy ", energy0, ": drift ", worst_energy, "; max|g| ", worst_g, "; max|G v| ", worst_gv);
  CHECK(worst_energy <= 1e-12 * std::abs(energy0));
  CHECK(worst_g <= 1e-10);
  CHECK(worst_gv <= 1e-10);
}

TEST_CASE("em-ggl conserves the angular momentum of the weightless double pendulum") {
  Model model = double_pendulum({{"gravity", 0.0}, {"omega1_0", 2.0}, {"omega2_0", -1.0}});
  EnergyMomentumGgl stepper(*model.system, StepperOptions{});
  State state = model.initial;
  stepper.initialize(state);
  const double J0 = angular_momentum(state);
  double drift = 0;
  for (int n = 0; n < 500; ++n) {
    stepper.step(state, 0.01);
    drift = std::max(drift, std::abs(angular_momentum(state) - J0));
  }
  MESSAGE("angular momentum ", J0, ", drift ", drift);
  CHECK(drift <= 1e-12 * std::abs(J0));
}

TEST_CASE("em-ggl: each step's energy loss equals the dampers' work (q1 - q0).C (q1 - q0)/h") {
  Model model = double_pendulum();
  const Matrix C = 0.5 * Matrix::Identity(2, 2);
  model.system->add(std::make_shared<ConstantDamping>("damper1", std::vector{model.system->find_block("mass1")}, C));
  model.system->add(std::make_shared<ConstantDamping>("damper2", std::vector{model.system->find_block("mass2")}, C));
  EnergyMomentumGgl stepper(*model.system, StepperOptions{});
  State state = model.initial;
  stepper.initialize(state);
  const double h = 0.01;
  double worst = 0, total_loss = 0;
  for (int n = 0; n < 300; ++n) {
    const Vector q0 = state.q;
    const double energy0 = stepper.conserved_energy(state);
    stepper.step(state, h);
    const Vector dq = state.q - q0;
    const double work = dq.dot(0.5 * dq) / h;  // C = 0.5 I on all four coordinates
    const double loss = energy0 - stepper.conserved_energy(state);
    worst = std::max(worst, std::abs(loss - work));
    total_loss += loss;
  }
  MESSAGE("total energy dissipated ", total_loss, ", worst per-step balance error ", worst);
  CHECK(total_loss > 1.0);
  CHECK(worst <= 1e-10);
}

TEST_CASE("em-ggl refuses singular and configuration-dependent mass matrices, and CHOLMOD") {
  for (const char* name : {"singular-mass-spring", "spring-pendulum"}) {
    const Scenario& scenario = find_scenario(name);
    const Model model = scenario.build(resolve_parameters(scenario, {}));
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(EnergyMomentumGgl(*model.system, StepperOptions{}),
                         doctest::Contains("em-ggl needs a constant invertible mass matrix"), StepperRefusal);
  }
  const Model model = double_pendulum();
  StepperOptions cholmod;
  cholmod.solver = LinearSolverKind::cholmod;
  CHECK_THROWS_AS(EnergyMomentumGgl(*model.system, cholmod), StepperRefusal);
}
