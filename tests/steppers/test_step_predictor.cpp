/// The steppers' warm start (steppers/step_predictor.hpp): when it extrapolates, and that it saves
/// Newton iterations without moving the solution beyond the Newton tolerance.
#include <memory>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/step_predictor.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

/// A state with two velocities and one multiplier (q and p play no part in the prediction).
State make_state(Index step, double t, double v0, double v1, double lambda) {
  State s;
  s.step = step;
  s.t = t;
  s.v = Vector(Eigen::Vector2d(v0, v1));
  s.lambda = Vector::Constant(1, lambda);
  return s;
}

struct SteppingTotals {
  State final_state;
  int iterations = 0;
};

/// `steps` steps of h = 1e-3 (the paper's) of `stepper_name` on the double four-bar, either with one
/// stepper or with a new stepper for every step (no history, so no extrapolation).
SteppingTotals run_double_fourbar(const std::string& stepper_name, int steps, bool fresh_stepper_each_step) {
  const Scenario& scenario = find_scenario("double-fourbar");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  StepperOptions options;
  options.newton.residual_tolerance = 1e-12;
  const StepperInfo& entry = find_stepper(stepper_name);
  std::unique_ptr<Stepper> stepper = entry.make(*model.system, options);
  SteppingTotals totals;
  totals.final_state = model.initial;
  stepper->initialize(totals.final_state);
  for (int n = 0; n < steps; ++n) {
    if (fresh_stepper_each_step) stepper = entry.make(*model.system, options);
    totals.iterations += stepper->step(totals.final_state, 1e-3).iterations;
  }
  return totals;
}

}  // namespace

TEST_CASE("the step predictor extrapolates only from the state its stepper returned, with the same h") {
  const State before = make_state(4, 0.04, 1.0, -2.0, 10.0);
  const State after = make_state(5, 0.05, 1.5, -2.5, 12.0);
  StepPredictor predictor;
  const StepGuess none = predictor.predict(after, 0.01);  // nothing recorded yet
  CHECK(none.v1 == after.v);
  CHECK(none.lambda == after.lambda);

  predictor.record(before, after, 0.01);
  const StepGuess guess = predictor.predict(after, 0.01);
  CHECK(guess.v1 == Vector(Eigen::Vector2d(2.0, -3.0)));  // 2 v0 - v_{-1}
  CHECK(guess.lambda == after.lambda);                    // one step's multipliers: lambda_0

  State changed_v = after;
  changed_v.v(1) = -2.4;
  State changed_lambda = after;
  changed_lambda.lambda(0) = 12.5;
  State other_step = after;
  other_step.step = 6;
  State other_t = after;
  other_t.t = 0.06;
  for (const State* s : {&changed_v, &changed_lambda, &other_step, &other_t}) {
    const StepGuess fallback = predictor.predict(*s, 0.01);
    CHECK(fallback.v1 == s->v);
    CHECK(fallback.lambda == s->lambda);
  }
  const StepGuess new_h = predictor.predict(after, 0.005);
  CHECK(new_h.v1 == after.v);
  CHECK(new_h.lambda == after.lambda);
}

TEST_CASE("the step predictor raises the order with each step that follows, velocities one sample ahead") {
  // Samples of quadratics in t (constant second differences: v 1, 1.5, 1.75, 1.75 and 8, 6, 3, -1;
  // lambda 1, 4, 9 for the three steps), exact in binary, so the guesses compare with ==. The first
  // state's lambda (100) stands for what initialize leaves: no step's multipliers, never used.
  const State first = make_state(4, 0.04, 1.0, 8.0, 100.0);
  const State second = make_state(5, 0.05, 1.5, 6.0, 1.0);
  const State third = make_state(6, 0.06, 1.75, 3.0, 4.0);
  const State fourth = make_state(7, 0.07, 1.75, -1.0, 9.0);
  StepPredictor predictor;

  predictor.record(first, second, 0.01);
  StepGuess guess = predictor.predict(second, 0.01);
  CHECK(guess.v1 == Vector(Eigen::Vector2d(2.0, 4.0)));  // linear: 2 v0 - v_{-1}
  CHECK(guess.lambda == Vector::Constant(1, 1.0));       // lambda_0 alone

  predictor.record(second, third, 0.01);
  guess = predictor.predict(third, 0.01);
  CHECK(guess.v1 == Vector(Eigen::Vector2d(1.75, -1.0)));  // quadratic: 3 (v0 - v_{-1}) + v_{-2}
  CHECK(guess.lambda == Vector::Constant(1, 7.0));         // linear: 2 lambda_0 - lambda_{-1}

  predictor.record(third, fourth, 0.01);
  guess = predictor.predict(fourth, 0.01);
  CHECK(guess.v1 == Vector(Eigen::Vector2d(1.5, -6.0)));
  CHECK(guess.lambda == Vector::Constant(1, 16.0));  // quadratic

  // A step that does not follow the recorded one starts the history again.
  State elsewhere = third;
  elsewhere.v(0) = 1.25;
  predictor.record(elsewhere, fourth, 0.01);
  guess = predictor.predict(fourth, 0.01);
  CHECK(guess.v1 == Vector(Eigen::Vector2d(2.25, -5.0)));
  CHECK(guess.lambda == fourth.lambda);

  // So does a new h.
  StepPredictor new_h;
  new_h.record(first, second, 0.01);
  new_h.record(second, third, 0.02);
  guess = new_h.predict(third, 0.02);
  CHECK(guess.v1 == Vector(Eigen::Vector2d(2.0, 0.0)));
  CHECK(guess.lambda == third.lambda);
}

TEST_CASE("livens-em and em-ggl: the warm start saves Newton iterations and moves no result beyond the tolerance") {
  for (const std::string name : {"livens-em", "em-ggl"}) {
    CAPTURE(name);
    const SteppingTotals warm = run_double_fourbar(name, 1200, false);
    const SteppingTotals cold = run_double_fourbar(name, 1200, true);
    const double q_difference = (warm.final_state.q - cold.final_state.q).cwiseAbs().maxCoeff();
    const double v_difference = (warm.final_state.v - cold.final_state.v).cwiseAbs().maxCoeff();
    MESSAGE(name, ": Newton iterations ", cold.iterations, " (v1 = v0) -> ", warm.iterations,
            " (extrapolated); final q and v differ by ", q_difference, ", ", v_difference);
    CHECK(warm.iterations < 0.9 * cold.iterations);
    // Both stop at the Newton tolerance, through the first singular configuration (t ~ 0.7). The
    // positions agree to 1e-10; livens-em's v1 = 2 dq/h - v0 turns a difference in dq into 2/h =
    // 2000 times as much in v (1e-12 -> 2e-9), so the velocities agree to 5e-9.
    CHECK(q_difference <= 1e-10);
    CHECK(v_difference <= 5e-9);
  }
}
