/// Compositions of the symmetric steppers by the triple jump (steppers/composition.hpp): their
/// coefficients, observed orders, the energy they keep, and refinement inside their substeps.
/// Observed orders are log2 of ratios of differences of q(T) between runs at h, h/2, h/4 (the
/// differences converge at the method's order), with Newton at 1e-14 so that its error stays far
/// below the differences.
#include <cmath>
#include <numeric>
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/composition.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

Vector final_configuration(const std::string& scenario_name, const std::string& stepper_name, double h, double t_end) {
  const Scenario& scenario = find_scenario(scenario_name);
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  StepperOptions options;
  options.newton.residual_tolerance = 1e-14;
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  for (long n = std::lround(t_end / h); n > 0; --n) stepper->step(state, h);
  return state.q;
}

/// The observed order from h to h/2 to h/4.
double observed_order(const std::string& scenario, const std::string& stepper, double h, double t_end) {
  const Vector q1 = final_configuration(scenario, stepper, h, t_end), q2 = final_configuration(scenario, stepper, h / 2, t_end),
               q4 = final_configuration(scenario, stepper, h / 4, t_end);
  const double e1 = (q1 - q2).cwiseAbs().maxCoeff(), e2 = (q2 - q4).cwiseAbs().maxCoeff();
  MESSAGE(stepper, " on ", scenario, ": differences ", e1, ", ", e2, ", observed order ", std::log2(e1 / e2));
  return std::log2(e1 / e2);
}

}  // namespace

TEST_CASE("triple jump coefficients: symmetric, summing to 1, 3 for order 4 and 9 for order 6") {
  for (int order : {4, 6}) {
    const std::vector<double> gammas = triple_jump_coefficients(order);
    CHECK(gammas.size() == (order == 4 ? 3u : 9u));
    CHECK(std::abs(std::accumulate(gammas.begin(), gammas.end(), 0.0) - 1.0) <= 1e-15);
    for (std::size_t k = 0; k < gammas.size(); ++k) CHECK(gammas[k] == gammas[gammas.size() - 1 - k]);
  }
  CHECK(triple_jump_coefficients(4)[1] < 0.0);  // the middle substep goes back in time
  CHECK_THROWS_AS(triple_jump_coefficients(8), std::invalid_argument);
}

TEST_CASE("livens-em4, em-ggl4 and em-ggl6 converge at orders 4, 4 and 6 on the double pendulum (constrained)") {
  CHECK(std::abs(observed_order("double-pendulum", "livens-em4", 0.02, 0.5) - 4.0) <= 0.3);
  CHECK(std::abs(observed_order("double-pendulum", "em-ggl4", 0.02, 0.5) - 4.0) <= 0.3);
  CHECK(std::abs(observed_order("double-pendulum", "em-ggl6", 0.02, 0.5) - 6.0) <= 0.3);
}

TEST_CASE("livens-em6 converges at order 6 without constraints, at order 4 with them") {
  // Spring pendulum (no constraints): 5.69 from h = 0.02 and 5.92 from 0.01, as measured.
  CHECK(std::abs(observed_order("spring-pendulum", "livens-em6", 0.01, 0.4) - 6.0) <= 0.3);
  // livens-em leaves G v = 0 free (v1 = 2 (q1 - q0)/h - v0): measured 4.01 on the double pendulum,
  // where em-ggl6, which imposes it, reaches 6. Checked so that a change shows.
  CHECK(std::abs(observed_order("double-pendulum", "livens-em6", 0.02, 0.5) - 4.0) <= 0.3);
}

TEST_CASE("the compositions conserve the energy their base conserves, and count their substeps") {
  for (const char* name : {"livens-em4", "livens-em6", "em-ggl4"}) {
    CAPTURE(name);
    const Scenario& scenario = find_scenario("double-pendulum");
    const Model model = scenario.build(resolve_parameters(scenario, {}));
    const std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model.system, StepperOptions{});
    State state = model.initial;
    stepper->initialize(state);
    const double energy0 = stepper->conserved_energy(state);
    double drift = 0.0;
    for (int n = 0; n < 50; ++n) {
      const StepReport report = stepper->step(state, 0.01);
      CHECK(report.substeps == (std::string(name) == "livens-em6" ? 9 : 3));
      drift = std::max(drift, std::abs(stepper->conserved_energy(state) - energy0));
    }
    CHECK(state.step == 50);
    CHECK(state.t == doctest::Approx(0.5).epsilon(1e-14));
    CHECK(drift <= 1e-11);  // to the Newton tolerance (1e-10 on the momentum balance) per substep
  }
}

TEST_CASE("a composition's substeps are refined where their Newton fails") {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  StepperOptions options;
  options.newton.max_iterations = 3;  // too few for the long substeps, enough for their halves
  options.newton.residual_tolerance = 1e-11;
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em4").make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  const double energy0 = stepper->conserved_energy(state);
  int refinements = 0;
  for (int n = 0; n < 20; ++n) refinements += stepper->step(state, 0.02).refinements;
  CHECK(refinements > 0);
  CHECK(std::abs(stepper->conserved_energy(state) - energy0) <= 1e-9);
}
