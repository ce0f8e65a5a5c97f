#pragma once
/// The tests' one harness for "run a mechanism and measure it": build a registered scenario,
/// integrate a model with a stepper, and track what every run test asks about (the stepper's
/// energy, the constraint residuals, Newton's iterations) with an optional look at each step.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "support/constraint_residuals.hpp"

namespace noether::testing {

/// The scenario's model with its defaults and `overrides` (names as `--set`).
inline Model build_scenario(const std::string& name, const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(name);
  return scenario.build(resolve_parameters(scenario, overrides));
}

/// What a run measured over the states after each of its steps.
struct RunMeasures {
  /// The stepper's conserved energy E_0 at the initial state; an adaptive stepper whose energy
  /// is defined only once its first step sets it (sem-vi) has its energy after that step here.
  double energy_initial = std::numeric_limits<double>::quiet_NaN();
  double energy_change_max = 0.0;     ///< max_n |E_n - E_0|
  double energy_increment_max = 0.0;  ///< max_n |E_{n+1} - E_n|
  ConstraintResiduals constraints;    ///< max_n max|g(q_n)| and max|G(q_n) v_n|
  int newton_iterations_max = 0;
  State final_state;
};

/// Takes no look at the steps.
struct IgnoreSteps {
  void operator()(const State&, const State&, Stepper&) const {}
};

/// Initializes `state` with `stepper`, then takes `steps` steps, the first of size h and each
/// next of the size the last one advanced (StepReport::step_size: h again for a fixed-step
/// stepper), measuring after each and calling observe(before, after, stepper).
template <class Observe = IgnoreSteps>
RunMeasures run_and_measure(Stepper& stepper, const System& system, State state, double h, long steps,
                            Observe observe = {}) {
  stepper.initialize(state);
  RunMeasures measures;
  double energy = stepper.conserved_energy(state);
  measures.energy_initial = energy;
  for (long n = 0; n < steps; ++n) {
    const State before = state;
    const StepReport report = stepper.step(state, h);
    h = report.step_size;
    measures.newton_iterations_max = std::max(measures.newton_iterations_max, report.iterations);
    const double next = stepper.conserved_energy(state);
    if (std::isnan(measures.energy_initial)) measures.energy_initial = energy = next;
    measures.energy_increment_max = std::max(measures.energy_increment_max, std::abs(next - energy));
    measures.energy_change_max = std::max(measures.energy_change_max, std::abs(next - measures.energy_initial));
    energy = next;
    measures.constraints.add(system, state);
    observe(before, state, stepper);
  }
  measures.final_state = std::move(state);
  return measures;
}

/// run_and_measure of model.initial for round(t_end / h) steps of the stepper registered as
/// `stepper_name`.
template <class Observe = IgnoreSteps>
RunMeasures run_and_measure(const Model& model, const std::string& stepper_name, double h, double t_end,
                            Observe observe = {}, const StepperOptions& options = {}) {
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, options);
  return run_and_measure(*stepper, *model.system, model.initial, h, std::lround(t_end / h), observe);
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

}  // namespace noether::testing
