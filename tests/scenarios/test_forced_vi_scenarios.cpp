/// The scenarios of [EnergyPreservingForcedVI] run by the fixed-step midpoint-vi: the double well
/// (energy error bounded, both wells visited) and the damped oscillator (order 2 against the
/// closed form, for positive and negative damping).
#include <doctest/doctest.h>

#include <cmath>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

/// Runs `scenario` with midpoint-vi; calls observe(state, energy) after every step.
template <class Observe>
void run_midpoint(const std::string& scenario_name, const ParameterValues& overrides, double h, double t_end,
                  Observe observe) {
  const Scenario& scenario = find_scenario(scenario_name);
  const Model model = scenario.build(resolve_parameters(scenario, overrides));
  const std::unique_ptr<Stepper> stepper = find_stepper("midpoint-vi").make(*model.system, StepperOptions{});
  State state = model.initial;
  stepper->initialize(state);
  for (long n = std::lround(t_end / h); n > 0; --n) {
    stepper->step(state, h);
    observe(model, state, stepper->conserved_energy(state));
  }
}

}  // namespace

TEST_CASE("double-well: midpoint-vi visits both wells with a bounded energy error, without drift") {
  const double energy0 = 1.125 + 1.0;  // T + V at q0 = 0, v0 = 1.5, a = 1
  double lowest = 0.0, highest = 0.0, first_half = 0.0, second_half = 0.0;
  run_midpoint("double-well", {{"q0", 0.0}, {"v0", 1.5}}, 0.05, 40.0, [&](const Model&, const State& s, double energy) {
    lowest = std::min(lowest, s.q(0));
    highest = std::max(highest, s.q(0));
    double& worst = s.t <= 20.0 ? first_half : second_half;
    worst = std::max(worst, std::abs(energy - energy0));
  });
  MESSAGE("q in [", lowest, ", ", highest, "], largest energy error ", first_half, " up to t = 20, ", second_half,
          " after");
  CHECK(lowest < -1.0);
  CHECK(highest > 1.0);
  CHECK(first_half <= 2e-2);  // O(h^2) at h = 0.05: 9.6e-3 measured
  CHECK(second_half <= 1.5 * first_half);  // bounded: the second 400 steps do not add to it
}

TEST_CASE("damped-oscillator: midpoint-vi converges at order 2 to the closed form, damped or amplified") {
  for (double zeta : {0.05, -0.05}) {
    CAPTURE(zeta);
    const auto error = [&](double h) {
      double worst = 0.0;
      run_midpoint("damped-oscillator", {{"zeta", zeta}}, h, 10.0, [&](const Model& model, const State& s, double) {
        worst = std::max(worst, std::abs(s.q(0) - model.probes[0].position(s)(0)));
      });
      return worst;
    };
    const double coarse = error(0.05), fine = error(0.025);
    MESSAGE("zeta = ", zeta, ": max errors ", coarse, ", ", fine, ", order ", std::log2(coarse / fine));
    CHECK(std::abs(std::log2(coarse / fine) - 2.0) <= 0.1);
  }
}
