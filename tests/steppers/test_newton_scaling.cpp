/// Newton's stopping test scaled to the system (solvers/newton.hpp, steppers/row_scale.hpp): each
/// row of the step equations is measured against the magnitude of its own terms, so the default
/// tolerance serves tiny inertias and the near-singular configurations of long linkages alike.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <noether/apps/runner.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

constexpr double kEndTime = 0.5;

/// q(T) of the double pendulum with both masses `mass`, released from horizontal, advanced by
/// `stepper_name` with h = T / steps and the default options.
Vector final_configuration(const std::string& stepper_name, double mass, int steps) {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {{"m1", mass}, {"m2", mass}}));
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, StepperOptions{});
  State state = model.initial;
  stepper->initialize(state);
  for (int n = 0; n < steps; ++n) stepper->step(state, kEndTime / steps);
  return state.q;
}

}  // namespace

TEST_CASE("a double pendulum of 1e-7 kg converges at order 2 down to errors of 1e-9 with the default Newton options") {
  // The motion does not depend on the mass (gravity is the only force). An absolute tolerance of
  // 1e-10 on max|R| would fail here: at h = T/6400 the first step's residual h m g ~ 8e-11 already
  // meets it, and the pendulum would never move. Reference: livens-em at T/102400 (error about 2e-11).
  constexpr double kTiny = 1e-7;
  const Vector reference = final_configuration("livens-em", kTiny, 102400);
  // The 1 kg pendulum's reference agrees to the rounding accumulated over 102 400 steps (9e-12
  // measured), far below the errors measured here.
  CHECK((reference - final_configuration("livens-em", 1.0, 102400)).cwiseAbs().maxCoeff() <= 1e-10);
  for (const std::string stepper_name : {"livens-em", "em-ggl"}) {
    CAPTURE(stepper_name);
    std::vector<double> errors;
    for (int steps : {3200, 6400, 12800})
      errors.push_back((final_configuration(stepper_name, kTiny, steps) - reference).cwiseAbs().maxCoeff());
    MESSAGE(stepper_name, ": errors at h = T/3200, T/6400, T/12800: ", errors[0], ", ", errors[1], ", ", errors[2]);
    for (std::size_t i = 0; i + 1 < errors.size(); ++i) CHECK(std::abs(std::log2(errors[i] / errors[i + 1]) - 2.0) <= 0.2);
    CHECK(errors.back() <= 2e-9);
  }
}

TEST_CASE("double pendulums of 1e-7, 1 and 1e3 kg take the same steps with the default Newton options") {
  // The stopping test is relative to each row's terms, so it asks the same of every mass unit: the
  // trajectories agree to rounding (with an absolute tolerance the 1e-7 kg pendulum stood still).
  for (const std::string stepper_name : {"livens-em", "em-ggl", "ggl-vi"}) {
    CAPTURE(stepper_name);
    const Vector unit = final_configuration(stepper_name, 1.0, 400);
    for (double mass : {1e-7, 1e3}) {
      CAPTURE(mass);
      CHECK((final_configuration(stepper_name, mass, 400) - unit).cwiseAbs().maxCoeff() <= 1e-12);
    }
  }
}

TEST_CASE("em-ggl passes both singular crossings of nfourbar n = 40 at h = 7.8125e-5 with the default tolerance") {
  // An absolute tolerance of 1e-10 on max|R| fails at the first crossing (t = 0.7215; 1e-9 at the
  // second, t = 1.244): max|R| sits at 1.5e-10 ... 6.6e-10 there, the rounding floor of rows that
  // carry constraint impulses of the large multipliers near the crossing.
  RunOptions options;
  options.scenario = "nfourbar";
  options.configure().stepper = "em-ggl";
  options.configure().h = 7.8125e-5;
  options.configure().t_end = 1.3;
  options.threads = 1;
  options.overrides = {{"n", 40}};
  const RunOutcome r = run(options);
  const RunStatistics& stats = r.statistics;
  MESSAGE("steps ", stats.steps, ", refined ", stats.refined_steps, ", max |g| ", stats.constraint_max_abs,
          ", max energy increment ", stats.energy_max_abs_increment, " of ", stats.energy_initial);
  REQUIRE(r.ok());
  CHECK(stats.steps == 16640);
  CHECK(stats.refined_steps == 0);
  CHECK(stats.constraint_max_abs <= 1e-10);
  CHECK(stats.energy_max_abs_increment <= 1e-10 * std::abs(stats.energy_initial));
}
