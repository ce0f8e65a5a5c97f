#pragma once
/// The typed settings of one run: the stepper, its linear solver and Newton options, the step and
/// the end time. Each has one default: the stepper's, max_steps' and the redundancy's here, the
/// solver's and the refinement depth's in StepperOptions, Newton's in NewtonOptions, and h and t_end
/// in each scenario's run_defaults. The command line shows them from here (run_settings.hpp).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper.hpp>

namespace noether {

/// What one run integrates with; summary.json reports it.
struct RunConfiguration {
  /// A name from steppers() (`noether list`).
  std::string stepper = "livens-em";
  /// The linear solver of the Newton matrices (StepperOptions' default); the steppers refuse CHOLMOD.
  LinearSolverKind solver = StepperOptions{}.solver;
  /// The solver's fill-reducing ordering (StepperOptions' default); klu and umfpack take any,
  /// eigen automatic only.
  FillOrdering ordering = StepperOptions{}.ordering;
  double h = 0.0;      ///< time step (> 0); no default here: the scenario's
  double t_end = 0.0;  ///< end time (>= 0), a whole number of steps h (step_count); the scenario's
  /// The most steps a run may take (`--max-steps`): a guard against an h or a t_end mistyped by
  /// orders of magnitude, which would start a run of days without a word. Raise it for a run
  /// meant to be that long.
  int max_steps = 10'000'000;
  /// Newton's options; the run settings among them (command line, summaries) are
  /// residual_tolerance, max_iterations, modified and refresh_contraction.
  NewtonOptions newton;
  /// How many times in a row a step whose Newton fails may be halved (StepperOptions; 0: never).
  int max_refinement_depth = StepperOptions{}.max_refinement_depth;
  /// Constraint equations that depend on the others along the motion (structural_redundancy,
  /// solvers/redundancy.hpp), found before the first step: dropped from the step equations (and
  /// still monitored in the outputs), or a refusal of the run.
  enum class Redundancy { drop, refuse };
  Redundancy redundancy = Redundancy::drop;
  /// The stepper's own parameters given (`--set S=3` for evi); the others keep the scheme's defaults.
  std::map<std::string, double, std::less<>> scheme_parameters;

  /// What the stepper is made with: solver and ordering, newton, the refinement depth and its parameters.
  StepperOptions stepper_options() const {
    return {solver, ordering, newton, max_refinement_depth, scheme_parameters};
  }
};

/// The configuration a scenario runs with when nothing is chosen: its h and t_end over the
/// defaults of RunConfiguration.
RunConfiguration default_run_configuration(const Scenario& scenario);

/// "drop" or "refuse", as the summaries and `--redundant` spell it.
std::string_view redundancy_name(RunConfiguration::Redundancy redundancy);

/// Every parameter the configuration's stepper declares, with the value it runs with.
std::map<std::string, double, std::less<>> resolved_scheme_parameters(const RunConfiguration& configuration);

/// "full" or "modified" (NewtonOptions::modified), as the summaries and `--newton` spell it.
std::string_view newton_method_name(const NewtonOptions& newton);

/// The steps of the run: t_end / h rounded to the nearest whole number (check_run_configuration
/// requires t_end / h to be whole to 1e-9 relative).
std::int64_t step_count(const RunConfiguration& configuration);

/// The Newton tolerances accepted: (0, 1e-3]. The tolerance bounds each row of the step equations
/// relative to the magnitude of its terms; beyond 1e-3 a "converged" step would carry errors no
/// run should report as a solution (1e300 once ran with ok true and a constraint error of 3.97).
ParameterRange newton_tolerance_range();

/// The refresh contractions of modified Newton accepted: (0, 1), a normal number (ParameterRange:
/// a subnormal contraction is refused as a subnormal magnitude is, on the command line and in
/// scene files alike).
ParameterRange newton_refresh_range();

/// Throws std::invalid_argument naming the setting, its value and what is accepted unless the
/// stepper is known, h is finite and > 0, t_end finite and >= 0, t_end / h is a whole number of
/// steps (to 1e-9 relative; the message offers the nearest end times) of at most max_steps
/// (the message gives the count and the smallest h within it), and max_steps, the Newton
/// tolerance, max_iterations, refresh_contraction and the refinement depth are in their ranges
/// (run_settings(): the one range each setting has on the command line, in scene files and here),
/// the solver takes the ordering (require_ordering_supported), and the stepper declares every
/// scheme parameter given.
void check_run_configuration(const RunConfiguration& configuration);

}  // namespace noether
