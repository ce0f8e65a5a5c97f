#include <cmath>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/livens_em.hpp>

using namespace noether;

namespace {

struct RunSummary {
  double energy_initial = 0, max_energy_increment = 0, max_constraint = 0;
  int max_newton_iterations = 0;
  State final_state;
};

RunSummary run_livens(const std::string& scenario_name, LinearSolverKind solver, const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(scenario_name);
  const ParameterValues p = resolve_parameters(scenario, overrides);
  Model model = scenario.build(p);
  StepperOptions options;
  options.solver = solver;
  LivensEnergyMomentum stepper(*model.system, options);
  State state = model.initial;
  stepper.initialize(state);
  RunSummary summary;
  summary.energy_initial = stepper.conserved_energy(state);
  const double h = scenario.run_defaults.h;
  const int steps = static_cast<int>(std::lround(scenario.run_defaults.t_end / h));
  Vector g(model.system->num_multipliers());
  double energy = summary.energy_initial;
  for (int n = 0; n < steps; ++n) {
    const NewtonReport report = stepper.step(state, h);
    summary.max_newton_iterations = std::max(summary.max_newton_iterations, report.iterations);
    const double next = stepper.conserved_energy(state);
    summary.max_energy_increment = std::max(summary.max_energy_increment, std::abs(next - energy));
    energy = next;
    calc_constraint_values(*model.system, state.q, g);
    summary.max_constraint = std::max(summary.max_constraint, max_abs(g));
  }
  summary.final_state = state;
  return summary;
}

}  // namespace

TEST_CASE("livens-em conserves the energy of the singular mass-spring system (KinonBetsch2023, Table 1)") {
  for (LinearSolverKind solver : {LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::eigen}) {
    CAPTURE(to_string(solver));
    const RunSummary s = run_livens("singular-mass-spring", solver);
    MESSAGE("energy ", s.energy_initial, ", max energy increment ", s.max_energy_increment, ", max |g| ",
            s.max_constraint, ", max Newton iterations ", s.max_newton_iterations);
    CHECK(s.max_energy_increment <= 1e-12 * std::abs(s.energy_initial));
    CHECK(s.max_constraint <= 1e-10);
  }
}

TEST_CASE("livens-em conserves the generalized energy of the spring pendulum (KinonBetsch2023, Table 2)") {
  const RunSummary s = run_livens("spring-pendulum", LinearSolverKind::umfpack);
  MESSAGE("energy ", s.energy_initial, ", max energy increment ", s.max_energy_increment);
  CHECK(s.max_energy_increment <= 1e-12 * std::abs(s.energy_initial));
}
