#include <noether/apps/summary_text.hpp>

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <noether/apps/interrupt_signals.hpp>
#include <noether/apps/run_settings.hpp>

namespace noether {
namespace {

class AlignedLines {
 public:
  /// The keys' column: values start after it, or one space after a longer key.
  static constexpr std::size_t kKeyWidth = 33;
  explicit AlignedLines(std::ostream& out) : out_(out) {}
  template <class Value>
  void line(std::string_view key, const Value& value) {
    std::ostringstream text;
    text << std::left << std::setw(kKeyWidth) << key << (key.size() < kKeyWidth ? "" : " ")  // a long key still ends
         << std::setprecision(12) << std::boolalpha << value << '\n';
    out_ << text.str();
  }
  /// NaN marks a quantity the run never computed.
  void line(std::string_view key, double value) {
    if (std::isnan(value))
      line(key, "not computed");
    else
      line<double>(key, value);
  }

 private:
  std::ostream& out_;
};

/// The scenario and the run settings of the plan.
void print_plan(AlignedLines& lines, const RunPlan& plan) {
  lines.line("scenario", plan.scenario);
  const RunConfiguration& run = plan.configuration;
  const auto key = [](std::string_view name) { return run_setting(name).summary_key; };
  lines.line(key("stepper"), run.stepper);
  for (const auto& [name, value] : resolved_scheme_parameters(run)) lines.line(name, value);
  lines.line(key("solver"), to_string(run.solver));
  lines.line(key("ordering"), to_string(run.ordering));
  lines.line(key("threads"), plan.threads);
  lines.line(key("h"), run.h);
  lines.line(key("t_end"), run.t_end);
  lines.line(key("newton_method"), newton_method_name(run.newton));
  lines.line(key("newton_tolerance"), run.newton.residual_tolerance);
  lines.line(key("newton_max_iterations"), run.newton.max_iterations);
  lines.line(key("newton_refresh"), run.newton.refresh_contraction);
}

/// The step and Newton totals and maxima, and the times.
void print_steps(AlignedLines& lines, const RunStatistics& s, const RunTimes& times) {
  lines.line("steps", s.steps);
  lines.line("t_reached", s.t_reached);
  lines.line("step_size_min", s.step_size_min);
  lines.line("step_size_max", s.step_size_max);
  lines.line("condition_estimate_max", s.condition_estimate_max);
  lines.line("newton_iterations_total", s.newton_iterations_total);
  lines.line("newton_iterations_max", s.newton_iterations_max);
  lines.line("newton_factorizations_total", s.newton_factorizations_total);
  lines.line("newton_stalled_steps", s.newton_stalled_steps);
  lines.line("newton_stalled_residual_max", s.newton_stalled_residual_max);
  const auto& evaluations = s.newton_evaluations;  // none: the run did not count them
  lines.line("newton_evaluations_total", evaluations ? std::to_string(evaluations->residuals) : "not counted");
  lines.line("newton_matrix_evaluations_total", evaluations ? std::to_string(evaluations->with_matrix) : "not counted");
  lines.line("setup_seconds", times.setup_seconds);
  lines.line("stepping_seconds", times.stepping_seconds);
  lines.line("wall_seconds", times.wall_seconds);
  lines.line("assembly_seconds", s.phase_seconds.assembly);
  lines.line("factorization_seconds", s.phase_seconds.factorization);
  lines.line("solve_seconds", s.phase_seconds.solve);
}

/// The ordering the linear solver chose and the fill of its factors (summary.json's factorization).
void print_factorization(AlignedLines& lines, const FactorizationProfile& f) {
  lines.line("factorization_ordering", f.ordering.empty() ? std::string("not reported") : f.ordering);
  lines.line("factor_entries", f.factor_entries > 0 ? std::to_string(f.factor_entries) : std::string("not reported"));
}

/// The energies, constraint maxima, drifts, the initial projection, the dropped equations and the
/// refinements.
void print_measures(AlignedLines& lines, const RunStatistics& s, const std::vector<std::string>& dropped_equations) {
  lines.line("energy_initial", s.energy_initial);
  lines.line("energy_final", s.energy_final);
  lines.line("energy_max_abs_increment", s.energy_max_abs_increment);
  lines.line("work_total", s.work_total);
  lines.line("energy_balance_max_abs", s.energy_balance_max_abs);
  lines.line("constraint_max_abs", s.constraint_max_abs);
  lines.line("velocity_constraint_max_abs", s.velocity_constraint_max_abs);
  for (const auto& [name, drift] : s.invariant_drifts) lines.line(name + "_drift", drift);
  for (const auto& [name, largest] : s.probe_maxima) lines.line(name + "_max_abs", largest);
  for (const RunStatistics::ConservedMomentum& c : s.conserved_momenta)
    lines.line(c.name + "_drift", c.drift);
  if (s.initial_projection.projected()) {
    lines.line("initial_position_correction", s.initial_projection.position_correction);
    lines.line("initial_velocity_correction", s.initial_projection.velocity_correction);
  }
  lines.line("dropped_equations", dropped_equations.size());
  for (const std::string& dropped : dropped_equations) lines.line("dropped", dropped);
  lines.line("refined_steps", s.refined_steps);
  lines.line("smallest_substep", s.smallest_substep);
  if (!s.refinements.empty()) lines.line("first_refined_at_t", s.refinements.front().t);
}

}  // namespace

void print_summary(std::ostream& out, const RunOutcome& outcome) {
  AlignedLines lines(out);
  print_plan(lines, outcome.plan);
  lines.line("status", to_string(outcome.ending.status));
  print_steps(lines, outcome.statistics, outcome.times);
  print_factorization(lines, outcome.factorization);
  print_measures(lines, outcome.statistics, outcome.dropped_equations);
  const RunEnding& ending = outcome.ending;
  if (ending.status == RunStatus::interrupted) lines.line("interrupted_by", signal_name(ending.interrupt_signal));
  if (ending.status == RunStatus::failed) {
    lines.line("failure_cause", to_string(ending.failure.cause));
    lines.line("failed_step", ending.failure.step);
    lines.line("failed_t", ending.failure.t);
  }
  lines.line("ok", outcome.ok());
  if (!outcome.ok()) lines.line("error", ending.error);
}

}  // namespace noether
