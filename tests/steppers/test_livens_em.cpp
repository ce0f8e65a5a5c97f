#include <cmath>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/livens_em.hpp>

#include "support/run_and_measure.hpp"

using namespace noether;

namespace {

/// The scenario at its run defaults, integrated by livens-em with `solver`.
testing::RunMeasures run_livens(const std::string& scenario_name, LinearSolverKind solver,
                                const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(scenario_name);
  const Model model = scenario.build(resolve_parameters(scenario, overrides));
  StepperOptions options;
  options.solver = solver;
  LivensEnergyMomentum stepper(*model.system, options);
  const double h = scenario.run_defaults.h;
  return testing::run_and_measure(stepper, *model.system, model.initial, h, std::lround(scenario.run_defaults.t_end / h));
}

}  // namespace

TEST_CASE("livens-em conserves the energy of the singular mass-spring system (KinonBetsch2023, Table 1)") {
  for (LinearSolverKind solver : {LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::eigen}) {
    CAPTURE(to_string(solver));
    const testing::RunMeasures s = run_livens("singular-mass-spring", solver);
    MESSAGE("energy ", s.energy_initial, ", max energy increment ", s.energy_increment_max, ", max |g| ",
            s.constraints.position, ", max Newton iterations ", s.newton_iterations_max);
    CHECK(s.energy_increment_max <= 1e-12 * std::abs(s.energy_initial));
    CHECK(s.constraints.position <= 1e-10);
  }
}

TEST_CASE("livens-em conserves the generalized energy of the spring pendulum (KinonBetsch2023, Table 2)") {
  const testing::RunMeasures s = run_livens("spring-pendulum", LinearSolverKind::umfpack);
  MESSAGE("energy ", s.energy_initial, ", max energy increment ", s.energy_increment_max);
  CHECK(s.energy_increment_max <= 1e-12 * std::abs(s.energy_initial));
}
