#include <noether/apps/summary_text.hpp>

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

#include <noether/apps/interrupt_signals.hpp>

namespace noether {
namespace {

class AlignedLines {
 public:
  explicit AlignedLines(std::ostream& out) : out_(out) {}
  template <class Value>
  void line(const char* key, const Value& value) {
    std::ostringstream text;
    text << std::left << std::setw(33) << key << std::setprecision(12) << std::boolalpha << value << '\n';
    out_ << text.str();
  }
  /// NaN marks a quantity the run never computed.
  void line(const char* key, double value) {
    if (std::isnan(value))
      line(key, "not computed");
    else
      line<double>(key, value);
  }

 private:
  std::ostream& out_;
};

}  // namespace

void print_summary(std::ostream& out, const RunResult& result) {
  AlignedLines lines(out);
  lines.line("scenario", result.plan.scenario);
  const RunConfiguration& run = result.plan.configuration;
  lines.line("stepper", run.stepper);
  for (const auto& [name, value] : resolved_scheme_parameters(run)) lines.line(name.c_str(), value);
  lines.line("solver", to_string(run.solver));
  lines.line("threads", result.plan.threads);
  lines.line("h", run.h);
  lines.line("t_end", run.t_end);
  lines.line("newton_method", newton_method_name(run.newton));
  lines.line("newton_tolerance", run.newton.residual_tolerance);
  lines.line("newton_max_iterations", run.newton.max_iterations);
  lines.line("newton_refresh_contraction", run.newton.refresh_contraction);
  lines.line("status", to_string(result.status));
  lines.line("steps", result.steps);
  lines.line("t_reached", result.t_reached);
  lines.line("step_size_min", result.step_size_min);
  lines.line("step_size_max", result.step_size_max);
  lines.line("condition_estimate_max", result.condition_estimate_max);
  lines.line("newton_iterations_total", result.newton_iterations_total);
  lines.line("newton_iterations_max", result.newton_iterations_max);
  lines.line("newton_factorizations_total", result.newton_factorizations_total);
  lines.line("newton_stalled_steps", result.newton_stalled_steps);
  lines.line("newton_stalled_residual_max", result.newton_stalled_residual_max);
  const auto& evaluations = result.newton_evaluations;  // none: the run did not count them
  lines.line("newton_evaluations_total", evaluations ? std::to_string(evaluations->residuals) : "not counted");
  lines.line("newton_matrix_evaluations_total", evaluations ? std::to_string(evaluations->with_matrix) : "not counted");
  lines.line("setup_seconds", result.setup_seconds);
  lines.line("stepping_seconds", result.stepping_seconds);
  lines.line("wall_seconds", result.wall_seconds);
  lines.line("assembly_seconds", result.phase_seconds.assembly);
  lines.line("factorization_seconds", result.phase_seconds.factorization);
  lines.line("solve_seconds", result.phase_seconds.solve);
  lines.line("energy_initial", result.energy_initial);
  lines.line("energy_final", result.energy_final);
  lines.line("energy_max_abs_increment", result.energy_max_abs_increment);
  lines.line("constraint_max_abs", result.constraint_max_abs);
  lines.line("velocity_constraint_max_abs", result.velocity_constraint_max_abs);
  for (const auto& [name, drift] : result.invariant_drifts) lines.line((name + "_drift").c_str(), drift);
  for (const RunResult::ConservedMomentum& c : result.conserved_momenta) lines.line((c.name + "_drift").c_str(), c.drift);
  if (result.initial_projection.projected()) {
    lines.line("initial_position_correction", result.initial_projection.position_correction);
    lines.line("initial_velocity_correction", result.initial_projection.velocity_correction);
  }
  lines.line("dropped_equations", result.dropped_equations.size());
  for (const std::string& dropped : result.dropped_equations) lines.line("dropped", dropped);
  lines.line("refined_steps", result.refined_steps);
  lines.line("smallest_substep", result.smallest_substep);
  if (!result.refinements.empty()) lines.line("first_refined_at_t", result.refinements.front().t);
  if (result.status == RunStatus::interrupted) lines.line("interrupted_by", signal_name(result.interrupt_signal));
  if (result.status == RunStatus::failed) {
    lines.line("failure_cause", to_string(result.failure_cause));
    lines.line("failed_step", result.failed_step);
    lines.line("failed_t", result.failed_t);
  }
  lines.line("ok", result.ok);
  if (!result.ok) lines.line("error", result.error);
}

}  // namespace noether
