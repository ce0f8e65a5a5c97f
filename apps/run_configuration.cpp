#include <noether/apps/run_configuration.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <noether/apps/run_settings.hpp>
#include <noether/engine/format.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

/// Throws std::invalid_argument "<what> must be <rule>, got <value>" unless value is finite and
/// meets_rule ("a finite number" takes the place of the rule for inf and NaN).
void require_number(double value, bool meets_rule, const std::string& what, const std::string& rule) {
  if (!std::isfinite(value))
    throw std::invalid_argument(what + " must be a finite number, got " + format_exact(value));
  if (!meets_rule) throw std::invalid_argument(what + " must be " + rule + ", got " + format_exact(value));
}

/// require_number with range.contains(value) as the test: "<what> must be <rule>, got <value>", or for
/// a subnormal magnitude the range's own refusal ("<what> must be a normal number, at least ...").
void require_in_range(double value, const ParameterRange& range, const std::string& what, const std::string& rule) {
  if (range.subnormal_magnitude(value)) throw std::invalid_argument(what + " " + range.refusal(value));
  require_number(value, range.contains(value), what, rule);
}

/// Throws std::invalid_argument "<what> must be at least <low>, got <value>" (or "at most <high>")
/// unless value is in the whole-number range of the setting named `name` (run_settings()).
void require_whole(int value, std::string_view name, const std::string& what) {
  const ParameterRange& range = run_setting(name).values.range;
  const auto bound = [](double b) { return std::to_string(static_cast<long long>(b)); };
  if (value < range.low)
    throw std::invalid_argument(what + " must be at least " + bound(range.low) + ", got " + std::to_string(value));
  if (value > range.high)
    throw std::invalid_argument(what + " must be at most " + bound(range.high) + ", got " + std::to_string(value));
}

/// t_end / h may differ from a whole number by this much, relative: the rounding of the division.
constexpr double kWholeStepsTolerance = 1e-9;

/// Throws unless t_end / h is a whole number of steps, at most c.max_steps.
void check_step_count(const RunConfiguration& c) {
  require_whole(c.max_steps, "max_steps", "the step limit (--max-steps)");
  const std::string settings = " (t_end = " + format_exact(c.t_end) + ", h = " + format_exact(c.h) + ")";
  const double steps = c.t_end / c.h;  // inf for an h too small to divide by
  if (!(steps <= c.max_steps))
    throw std::invalid_argument("the run would take t_end / h = " + format_number(steps) + " steps" + settings +
                                ", more than the limit of " + std::to_string(c.max_steps) +
                                " (--max-steps): choose h >= " + format_exact(c.t_end / c.max_steps) +
                                ", or raise --max-steps if so many steps are meant");
  const double whole = std::round(steps);
  // 0 steps reach t = 0 only: a t_end > 0 within the rounding of 0 steps (h far beyond it) is refused.
  const bool reaches_t_end = whole > 0 || c.t_end == 0;
  if (reaches_t_end && std::abs(steps - whole) <= kWholeStepsTolerance * std::max(1.0, whole)) return;
  const double below = std::floor(steps), above = std::ceil(steps);
  throw std::invalid_argument("the end time is not a whole number of steps: t_end / h = " + format_exact(steps) +
                              settings + "; choose t_end = " + format_exact(below * c.h) + " or " +
                              format_exact(above * c.h) + " (" + format_exact(below) + " or " +
                              format_exact(above) + " steps), or an h that divides t_end");
}

}  // namespace

std::int64_t step_count(const RunConfiguration& configuration) {
  return std::llround(configuration.t_end / configuration.h);
}

RunConfiguration default_run_configuration(const Scenario& scenario) {
  RunConfiguration configuration;
  configuration.h = scenario.run_defaults.h;
  configuration.t_end = scenario.run_defaults.t_end;
  return configuration;
}

std::string_view redundancy_name(RunConfiguration::Redundancy redundancy) {
  return redundancy == RunConfiguration::Redundancy::drop ? "drop" : "refuse";
}

std::map<std::string, double, std::less<>> resolved_scheme_parameters(const RunConfiguration& configuration) {
  std::map<std::string, double, std::less<>> values;
  const StepperOptions options = configuration.stepper_options();
  for (const SchemeParameter& p : find_stepper(configuration.stepper).parameters)
    values.emplace(p.name, scheme_parameter(options, p));
  return values;
}

std::string_view newton_method_name(const NewtonOptions& newton) { return newton.modified ? "modified" : "full"; }

ParameterRange newton_tolerance_range() { return {.low = 0.0, .high = 1e-3, .low_open = true}; }

ParameterRange newton_refresh_range() { return ParameterRange::between(0.0, 1.0); }

void check_run_configuration(const RunConfiguration& c) {
  check_scheme_parameters(c.stepper, find_stepper(c.stepper).parameters, c.stepper_options());
  if (!linear_solver_built(c.solver))
    throw std::invalid_argument("solver " + std::string(to_string(c.solver)) + ": " + linear_solver_missing_message(c.solver));
  require_number(c.h, c.h > 0.0, "time step h", "> 0");
  require_number(c.t_end, c.t_end >= 0.0, "end time t_end", ">= 0");
  check_step_count(c);
  const ParameterRange& tolerances = run_setting("newton_tolerance").values.range;
  require_in_range(c.newton.residual_tolerance, tolerances, "Newton tolerance (--newton-tol)",
                   tolerances.describe() + " (e.g. 1e-10)");
  require_whole(c.newton.max_iterations, "newton_max_iterations", "Newton iteration limit (--newton-max-iterations)");
  require_in_range(c.newton.refresh_contraction, run_setting("newton_refresh").values.range,
                   "modified Newton's refresh contraction (--newton-refresh)", "strictly between 0 and 1 (e.g. 0.25)");
  require_whole(c.max_refinement_depth, "refine_depth", "the step refinement depth (--refine-depth)");
}

}  // namespace noether
