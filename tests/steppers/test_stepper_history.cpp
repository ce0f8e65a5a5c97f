/// Stepper::checkpoint and restore_history (steppers/stepper_history.hpp): a stepper made anew on
/// the same system, given a state and the history of the stepper that reached it, continues
/// bitwise as that stepper does (what a checkpoint relies on, apps/checkpoint.hpp).
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

bool bitwise_equal(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::equal(a.data(), a.data() + a.size(), b.data(), [](double x, double y) {
           return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
         });
}

bool bitwise_equal(const State& a, const State& b) {
  return a.step == b.step && std::bit_cast<std::uint64_t>(a.t) == std::bit_cast<std::uint64_t>(b.t) &&
         bitwise_equal(a.q, b.q) && bitwise_equal(a.v, b.v) && bitwise_equal(a.p, b.p) &&
         bitwise_equal(a.lambda, b.lambda) &&
         std::bit_cast<std::uint64_t>(a.discrete_energy) == std::bit_cast<std::uint64_t>(b.discrete_energy);
}

/// Steps `stepper` `steps` times from state; an adaptive stepper gets its last step's size as
/// the next first guess (as the runner does). Returns the Newton iterations taken.
int step_on(Stepper& stepper, State& state, double& h, int steps) {
  int iterations = 0;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = stepper.step(state, h);
    iterations += report.iterations;
    if (stepper.adaptive_step_size()) h = report.step_size / report.substeps;
  }
  return iterations;
}

}  // namespace

TEST_CASE("a stepper given another's state and history continues bitwise as that one") {
  // The original takes 7 steps, saves its history (Stepper::checkpoint, which also drops its
  // factorization), and takes 5 more; a new stepper given the saved state and history takes the
  // same 5.
  const Scenario& scenario = find_scenario("chain2d");
  const Model model = scenario.build(resolve_parameters(scenario, {{"n", 6.0}}));
  for (const StepperInfo& info : steppers()) {  // livens-em, em-ggl, evi, midpoint-vi, ggl-vi, sem-vi, compositions
    CAPTURE(info.name);
    const std::unique_ptr<Stepper> original = info.make(*model.system, {});
    State state = model.initial;
    original->initialize(state);
    double h = 0.01;
    step_on(*original, state, h, 7);
    const StepperHistory saved = original->checkpoint();
    const State saved_state = state;
    const double saved_h = h;
    const int original_iterations = step_on(*original, state, h, 5);

    const std::unique_ptr<Stepper> restored = info.make(*model.system, {});
    restored->restore_history(saved);
    CHECK(restored->checkpoint() == saved);
    State resumed = saved_state;
    double resumed_h = saved_h;
    const int resumed_iterations = step_on(*restored, resumed, resumed_h, 5);
    CHECK(bitwise_equal(resumed, state));
    CHECK(resumed_iterations == original_iterations);

    // Without the history the warm start starts again: another Newton path, so the test above
    // could fail (sem-vi and the warm-started schemes).
    if (!info.make(*model.system, {})->checkpoint().entries().empty()) {
      const std::unique_ptr<Stepper> forgetful = info.make(*model.system, {});
      State cold = saved_state;
      double cold_h = saved_h;
      const int cold_iterations = step_on(*forgetful, cold, cold_h, 5);
      CHECK((cold_iterations != original_iterations || !bitwise_equal(cold, state)));
    }
  }
}

TEST_CASE("restore_history names the entry that is missing or of the wrong size") {
  const Scenario& scenario = find_scenario("chain2d");
  const Model model = scenario.build(resolve_parameters(scenario, {{"n", 3.0}}));
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*model.system, {});
  State state = model.initial;
  stepper->initialize(state);
  stepper->step(state, 0.01);
  stepper->step(state, 0.01);
  StepperHistory history = stepper->checkpoint();
  StepperHistory::Entries entries = history.entries();
  entries.erase("predictor.v1");
  CHECK_THROWS_WITH_AS(stepper->restore_history(StepperHistory(entries)),
                       "the stepper history has no entry 'predictor.v1'", std::invalid_argument);
  history.put("predictor.v1", std::vector<double>{1.0, 2.0});
  CHECK_THROWS_WITH_AS(stepper->restore_history(history),
                       doctest::Contains("'predictor.v1' holds 2 values, expected"), std::invalid_argument);
}
