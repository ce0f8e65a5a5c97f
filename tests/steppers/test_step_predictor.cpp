/// The steppers' warm start (steppers/step_predictor.hpp): when it extrapolates, and that it saves
/// Newton iterations without moving the solution beyond the Newton tolerance.
#include <cmath>
#include <memory>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/step_predictor.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

/// A state with two positions, two velocities and one multiplier (p plays no part in the prediction).
State make_state(Index step, double t, double v0, double v1, double lambda) {
  State s;
  s.step = step;
  s.t = t;
  s.q = Vector::Constant(2, t);  // tells the states apart, as the positions of a motion do
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

TEST_CASE("the step predictor extrapolates only from the state its stepper returned") {
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

  State changed_q = after;
  changed_q.q(0) = 0.25;
  State changed_v = after;
  changed_v.v(1) = -2.4;
  State changed_lambda = after;
  changed_lambda.lambda(0) = 12.5;
  for (const State* s : {&changed_q, &changed_v, &changed_lambda}) {
    const StepGuess fallback = predictor.predict(*s, 0.01);
    CHECK(fallback.v1 == s->v);
    CHECK(fallback.lambda == s->lambda);
  }
  // Renumbered (as a composition renumbers its substeps' result): still the state it returned.
  State renumbered = after;
  renumbered.step = 6;
  renumbered.t = 0.06;
  CHECK(predictor.predict(renumbered, 0.01).v1 == guess.v1);
  // Another h: the same line through the samples, evaluated one new step ahead.
  CHECK(predictor.predict(after, 0.005).v1 == Vector(Eigen::Vector2d(1.75, -2.75)));
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
}

TEST_CASE("the step predictor follows steps of different sizes and directions, as a composition's substeps") {
  // v(t) = t^2 and lambda(t) = 1 - t^2 sampled along substeps of 0.5, -0.25 and 1 (times 0, 0.5,
  // 0.25, 1.25; a step's multiplier is lambda at its midpoint): the quadratic through them is exact.
  const auto v = [](double t) { return t * t; };
  const auto lambda = [](double t) { return 1.0 - t * t; };
  const auto state_at = [&](Index step, double t, double multiplier) { return make_state(step, t, v(t), 2.0 * v(t), multiplier); };
  const State s0 = state_at(0, 0.0, 0.0), s1 = state_at(1, 0.5, lambda(0.25)), s2 = state_at(2, 0.25, lambda(0.375)),
              s3 = state_at(3, 1.25, lambda(0.75));
  StepPredictor predictor;
  predictor.record(s0, s1, 0.5);
  predictor.record(s1, s2, -0.25);
  predictor.record(s2, s3, 1.0);
  const StepGuess guess = predictor.predict(s3, -0.5);  // to t = 0.75, midpoint 1
  CHECK(guess.v1(0) == doctest::Approx(v(0.75)).epsilon(1e-14));
  CHECK(guess.v1(1) == doctest::Approx(2.0 * v(0.75)).epsilon(1e-14));
  CHECK(guess.lambda(0) == doctest::Approx(lambda(1.0)).epsilon(1e-14));

  // A step back over the one just taken: its velocity samples coincide (t = 0 twice); the
  // polynomial through the distinct ones is used, never a division by their zero distance.
  StepPredictor back_and_forth;
  const State back = state_at(2, 0.0, lambda(0.25));
  back_and_forth.record(s0, s1, 0.5);
  back_and_forth.record(s1, back, -0.5);
  const StepGuess again = back_and_forth.predict(back, 0.5);
  CHECK(std::isfinite(again.v1(0)));
  CHECK(again.v1(0) == doctest::Approx(v(0.5)).epsilon(1e-14));  // the line through (0.5, v1) and (0, v0)
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
