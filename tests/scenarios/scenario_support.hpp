#pragma once
/// Helpers of the scenario tests: build a registered scenario, integrate a model with a named
/// stepper and look at each step.
#include <cmath>
#include <memory>
#include <string>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether::scenario_testing {

/// The scenario's model with its defaults and `overrides` (names as `--set`).
inline Model build_scenario(const std::string& name, const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(name);
  return scenario.build(resolve_parameters(scenario, overrides));
}

/// Integrates model.initial for round(t_end / h) steps of `stepper_name`, calling
/// observe(before, after, stepper) after each step (observe may throw doctest failures).
template <class Observe>
void integrate(const Model& model, const std::string& stepper_name, double h, double t_end, Observe observe,
               const StepperOptions& options = {}) {
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  const long steps = std::lround(t_end / h);
  for (long n = 0; n < steps; ++n) {
    const State before = state;
    stepper->step(state, h);
    observe(before, state, *stepper);
  }
}

/// max|g(q)|.
inline double constraint_residual(const System& system, const Vector& q) {
  Vector g(system.num_multipliers());
  calc_constraint_values(system, q, g);
  return max_abs(g);
}

/// max|G(q) v|.
inline double velocity_constraint_residual(const System& system, const Vector& q, const Vector& v) {
  Vector gv(system.num_multipliers());
  calc_velocity_constraint_values(system, q, v, gv);
  return max_abs(gv);
}

}  // namespace noether::scenario_testing
