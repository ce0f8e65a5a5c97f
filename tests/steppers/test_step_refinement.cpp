/// Step refinement (StepperOptions::max_refinement_depth): a step whose Newton fails is taken as
/// two half-steps of the same scheme. ggl-vi's step equations [KinonBetschSchneider2023, eq. (41)]
/// have no solution at some steps near the singular configurations of the four-bar linkages (a
/// turning point in h just below the step); two half-steps converge.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <string>

#include <noether/apps/runner.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/ggl_vi.hpp>
#include <noether/steppers/livens_em.hpp>
#include "support/temp_dir.hpp"

using namespace noether;

namespace {

RunOutcome run_scenario(const std::string& scenario, const std::string& stepper, double h, double t_end,
                       ParameterValues overrides = {}, std::optional<int> depth = std::nullopt) {
  RunOptions options;
  options.scenario = scenario;
  options.configure().stepper = stepper;
  options.configure().h = h;
  options.configure().t_end = t_end;
  options.threads = 1;
  options.overrides = std::move(overrides);
  if (depth) options.configure().max_refinement_depth = *depth;
  return run(options);
}

/// The model of double-fourbar at the state ggl-vi reaches at the first step it cannot take at
/// h = 2e-3 without refinement.
struct FailingStep {
  Model model = find_scenario("double-fourbar").build(resolve_parameters(find_scenario("double-fourbar"), {}));
  State state;
  FailingStep() {
    StepperOptions options;
    options.max_refinement_depth = 0;
    GglVariationalIntegrator stepper(*model.system, options);
    state = model.initial;
    stepper.initialize(state);
    for (;;) {
      const State before = state;
      try {
        stepper.step(state, 2e-3);
      } catch (const NewtonError&) {
        REQUIRE(state.q == before.q);  // a failed step leaves the state as it was
        return;
      }
      REQUIRE(state.t < 10.0);
    }
  }
};

}  // namespace

TEST_CASE("a step's Newton work adds up over its parts, keeping the largest stalled residual and condition") {
  NewtonReport total, first, second;
  first.iterations = 4;
  first.factorizations = 2;
  first.stalled_residual = 3e-12;
  first.condition_estimate = 1e8;
  second.iterations = 30;
  second.factorizations = 9;
  second.stalled_residual = 0.0;  // converged by the stopping test
  second.history = {{1e-3, 1.0, 0.0, false}};
  add_newton_work(total, first);
  add_newton_work(total, second);
  CHECK(total.iterations == 34);
  CHECK(total.factorizations == 11);
  CHECK(total.stalled_residual == 3e-12);  // a later part that converged does not hide it
  CHECK(total.condition_estimate == 1e8);
  CHECK(total.history.size() == 1);  // the last part's
}

TEST_CASE("a step whose Newton fails is taken as two half-steps, on the caller's grid") {
  FailingStep failing;
  MESSAGE("ggl-vi, h = 2e-3: Newton fails from t = ", failing.state.t, " without refinement");
  GglVariationalIntegrator stepper(*failing.model.system, StepperOptions{});
  State state = failing.state;
  const StepReport report = stepper.step(state, 2e-3);
  CHECK(report.refinements >= 1);
  CHECK(report.substeps >= 2);
  CHECK(report.smallest_substep <= 1e-3);
  CHECK(state.step == failing.state.step + 1);  // one step of the caller's grid
  CHECK(state.t == failing.state.t + 2e-3);
  Vector g(failing.model.system->num_multipliers());
  calc_constraint_values(*failing.model.system, state.q, g);
  CHECK(max_abs(g) <= 1e-10);
}

TEST_CASE("ggl-vi runs the double four-bar through its singular configurations at every step size, damped or not") {
  for (double h : {2e-3, 1e-3, 5e-4})
    for (double damping : {0.0, 0.5}) {
      CAPTURE(h);
      CAPTURE(damping);
      const RunOutcome result = run_scenario("double-fourbar", "ggl-vi", h, 10.0, {{"damping", damping}});
      MESSAGE("h = ", h, ", damping = ", damping, ": ", result.statistics.refined_steps, " steps refined, smallest substep ",
              result.statistics.smallest_substep);
      CHECK(result.ok());
      CHECK(result.statistics.steps == std::llround(10.0 / h));
      CHECK(result.statistics.constraint_max_abs <= 1e-9);
      CHECK(result.statistics.refined_steps == static_cast<std::int64_t>(result.statistics.refinements.size()));
    }
}

// Labelled long: 37 s in Release, 60 000 steps of what shorter tests check under the sanitizers.
TEST_CASE("ggl-vi runs nfourbar n = 40 for 20 s at h = 1e-3 and 5e-4" * doctest::test_suite("long")) {
  for (double h : {1e-3, 5e-4}) {
    CAPTURE(h);
    const RunOutcome result = run_scenario("nfourbar", "ggl-vi", h, 20.0, {{"n", 40}});
    MESSAGE("h = ", h, ": ", result.statistics.refined_steps, " steps refined, smallest substep ", result.statistics.smallest_substep);
    CHECK(result.ok());
    CHECK(result.statistics.steps == std::llround(20.0 / h));
    CHECK(result.statistics.constraint_max_abs <= 1e-9);
  }
}

TEST_CASE("without refinement the same runs fail where the step equations have no solution") {
  const RunOutcome result = run_scenario("double-fourbar", "ggl-vi", 2e-3, 10.0, {}, 0);
  CHECK_FALSE(result.ok());
  CHECK(result.ending.failure.step > 0);
  CHECK(result.statistics.refined_steps == 0);
}

TEST_CASE("a refined livens-em step keeps the energy the scheme conserves") {
  // One Newton iteration is too few for h = 0.01 on the double pendulum but enough for smaller
  // substeps; every substep conserves the generalized energy, so the refined step does too.
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  StepperOptions options;
  options.newton.max_iterations = 2;
  options.newton.residual_tolerance = 1e-11;
  LivensEnergyMomentum stepper(*model.system, options);
  State state = model.initial;
  stepper.initialize(state);
  const double energy0 = stepper.conserved_energy(state);
  int refined = 0;
  for (int n = 0; n < 50; ++n) refined += stepper.step(state, 0.01).refinements > 0 ? 1 : 0;
  MESSAGE(refined, " of 50 steps refined");
  CHECK(refined > 0);
  CHECK(std::abs(stepper.conserved_energy(state) - energy0) <= 1e-9);
  CHECK(state.t == doctest::Approx(0.5).epsilon(1e-14));
}

TEST_CASE("a run that fails after refining reports where, and its time series ends with the last good state") {
  const testing::TempDir dir("refinement_failure");
  RunOptions options;
  options.scenario = "double-pendulum";
  options.configure().newton.max_iterations = 1;
  options.configure().newton.residual_tolerance = 1e-14;
  options.configure().max_refinement_depth = 3;
  options.threads = 1;
  options.output_every = 7;
  options.output_dir = dir.path;
  const RunOutcome result = run(options);
  CHECK_FALSE(result.ok());
  CHECK(result.ending.failure.step == 1);
  CHECK(result.ending.failure.t == 0.0);
  CHECK(result.ending.error.find("Newton failed at step 1 (t = 0 -> 0.01), refined 3 times, in its substep from t = 0 by h = "
                          "0.00125") == 0);
  std::ifstream csv(dir.path / "timeseries.csv");
  std::string line, last;
  int rows = 0;
  while (std::getline(csv, line)) last = line, ++rows;
  CHECK(rows == 2);  // the header and step 0, the last good state
  CHECK(last.rfind("0,", 0) == 0);
}

TEST_CASE("a refined step that fails after a good substep leaves the state as it was, and names the step it refined") {
  // livens-em on double-fourbar at h = 0.2 with three Newton iterations and one refinement: the
  // step from t = 0.6 fails whole, its first half to 0.7 succeeds, its second half fails.
  const Model model = find_scenario("double-fourbar").build(resolve_parameters(find_scenario("double-fourbar"), {}));
  StepperOptions options;
  options.max_refinement_depth = 1;
  options.newton.max_iterations = 3;
  LivensEnergyMomentum stepper(*model.system, options);
  State state = model.initial;
  stepper.initialize(state);
  std::string message;
  for (int n = 0; n < 10 && message.empty(); ++n) {
    const State before = state;
    try {
      stepper.step(state, 0.2);
    } catch (const NewtonError& e) {
      message = e.what();
      CHECK(state.step == before.step);
      CHECK(state.t == before.t);
      CHECK(state.q == before.q);
      CHECK(state.v == before.v);
      CHECK(state.p == before.p);
      CHECK(state.lambda == before.lambda);
    }
  }
  CHECK(message.find("(t = 0.6 -> 0.8), refined 1 times, in its substep from t = 0.7 by h = 0.1") != std::string::npos);
}
