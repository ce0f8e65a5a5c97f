#include <noether/apps/summary_json.hpp>

#include <noether/apps/interrupt_signals.hpp>
#include <noether/apps/run_settings.hpp>

namespace noether {
namespace {

using Json = nlohmann::ordered_json;

/// The refined steps listed in the statistics, each as {step, t, substeps, smallest_substep}.
Json refinements_json(const RunStatistics& statistics) {
  Json list = Json::array();
  for (const RunStatistics::RefinedStep& r : statistics.refinements)
    list.push_back({{"step", r.step}, {"t", r.t}, {"substeps", r.substeps}, {"smallest_substep", r.smallest_substep}});
  return list;
}

/// The file's name, or null when there is none.
Json file_or_null(const std::string& file) { return file.empty() ? Json() : Json(file); }

/// The summary key of the run setting `name` (RunSetting::summary_key).
std::string summary_key(std::string_view name) { return std::string(run_setting(name).summary_key); }

/// The status, the files, the scenario and the run settings of the plan.
void add_plan(Json& j, const RunOutcome& o) {
  const RunConfiguration& run = o.plan.configuration;
  j["status"] = to_string(o.ending.status);
  j["timeseries"] = file_or_null(o.files.timeseries);
  j["motion"] = file_or_null(o.files.motion);
  j["final_state"] = file_or_null(o.files.final_state);
  j["scenario"] = o.plan.scenario;
  j[summary_key("stepper")] = run.stepper;
  j[summary_key("solver")] = to_string(run.solver);
  j[summary_key("ordering")] = to_string(run.ordering);
  j[summary_key("h")] = run.h;
  j[summary_key("t_end")] = run.t_end;
  j[summary_key("newton_method")] = newton_method_name(run.newton);
  j[summary_key("newton_tolerance")] = run.newton.residual_tolerance;
  j[summary_key("newton_max_iterations")] = run.newton.max_iterations;
  j[summary_key("newton_refresh")] = run.newton.refresh_contraction;
  j[summary_key("refine_depth")] = run.max_refinement_depth;
  j[summary_key("redundant")] = redundancy_name(run.redundancy);
  j[summary_key("stepper_parameters")] = resolved_scheme_parameters(run);
}

/// The step and Newton totals and maxima, and the wall-clock times.
void add_steps(Json& j, const RunStatistics& s, const RunTimes& times) {
  j["steps"] = s.steps;
  j["t_reached"] = s.t_reached;
  j["step_size_min"] = s.step_size_min;
  j["step_size_max"] = s.step_size_max;
  j["condition_estimate_max"] = s.condition_estimate_max;
  j["newton_iterations_total"] = s.newton_iterations_total;
  j["newton_iterations_max"] = s.newton_iterations_max;
  j["newton_factorizations_total"] = s.newton_factorizations_total;
  j["newton_stalled_steps"] = s.newton_stalled_steps;
  j["newton_stalled_residual_max"] = s.newton_stalled_residual_max;
  j["newton_evaluations_total"] = count_or_null(s.newton_evaluations, &RunStatistics::NewtonEvaluations::residuals);
  j["newton_matrix_evaluations_total"] =
      count_or_null(s.newton_evaluations, &RunStatistics::NewtonEvaluations::with_matrix);
  j["setup_seconds"] = times.setup_seconds;
  j["stepping_seconds"] = times.stepping_seconds;
  j["closing_seconds"] = times.closing_seconds;
  j["wall_seconds"] = times.wall_seconds;
}

/// The energies, the constraint maxima, the refinements and the dropped equations.
void add_measures(Json& j, const RunOutcome& o) {
  const RunStatistics& s = o.statistics;
  j["energy_initial"] = s.energy_initial;
  j["energy_final"] = s.energy_final;
  j["energy_max_abs_increment"] = s.energy_max_abs_increment;
  j["work_total"] = s.work_total;
  j["energy_balance_max_abs"] = s.energy_balance_max_abs;
  j["constraint_max_abs"] = s.constraint_max_abs;
  j["velocity_constraint_max_abs"] = s.velocity_constraint_max_abs;
  j["refined_steps"] = s.refined_steps;
  j["smallest_substep"] = s.smallest_substep;
  j["refinements"] = refinements_json(s);
  j["dropped_equations"] = o.dropped_equations;
}

/// ok, and unless the run completed how it ended: error, failure, interrupted_by.
void add_ending(Json& j, const RunOutcome& o) {
  const RunEnding& e = o.ending;
  j["ok"] = o.ok();
  if (!o.ok()) j["error"] = e.error;
  if (e.status == RunStatus::failed)
    j["failure"] = {{"cause", to_string(e.failure.cause)}, {"step", e.failure.step}, {"t", e.failure.t}};
  if (e.status == RunStatus::interrupted) j["interrupted_by"] = signal_name(e.interrupt_signal);
}

Json initial_projection_json(const RunStatistics& s) {
  const InitialProjection& projection = s.initial_projection;
  return {{"projected", projection.projected()},
          {"position_violation", projection.positions.largest},
          {"position_correction", projection.position_correction},
          {"velocity_violation", projection.velocities.largest},
          {"velocity_correction", projection.velocity_correction},
          {"note", s.initial_projection_note}};
}

/// The ordering the linear solver chose, why, and its first factorization's fill and flops; null
/// where the solver does not say or no step factored a matrix.
Json factorization_json(const FactorizationProfile& f) {
  const auto text_or_null = [](const std::string& text) { return text.empty() ? Json() : Json(text); };
  return {{"solver", text_or_null(f.solver)},
          {"ordering", text_or_null(f.ordering)},
          {"reason", text_or_null(f.reason)},
          {"factor_entries", f.factor_entries > 0 ? Json(f.factor_entries) : Json()},
          {"flops", f.flops}};
}

/// The invariants' drifts and the conserved momenta ({} when the model declares none).
void add_drifts(Json& j, const RunStatistics& s) {
  j["invariant_drifts"] = Json::object();
  for (const auto& [name, drift] : s.invariant_drifts) j["invariant_drifts"][name] = drift;
  if (!s.probe_maxima.empty()) {
    j["probe_maxima"] = Json::object();
    for (const auto& [name, largest] : s.probe_maxima) j["probe_maxima"][name] = largest;
  }
  j["conserved_momenta"] = Json::object();
  if (s.conserved_momenta.empty()) return;
  const Eigen::Vector3d& o = s.momenta_about;
  j["conserved_momenta"]["about"] = {o.x(), o.y(), o.z()};
  for (const RunStatistics::ConservedMomentum& c : s.conserved_momenta)
    j["conserved_momenta"][c.name] = {{"initial", c.initial}, {"final", c.final}, {"drift", c.drift}};
}

}  // namespace

Json count_or_null(const std::optional<RunStatistics::NewtonEvaluations>& counts,
                   std::int64_t RunStatistics::NewtonEvaluations::*count) {
  return counts ? Json((*counts).*count) : Json();
}

std::vector<std::string> summary_plan_keys() {
  std::vector<std::string> keys{"scenario", "parameters", "scene"};
  for (const RunSetting& setting : run_settings())
    if (!setting.summary_key.empty() && setting.name != "threads" && setting.name != "parts") keys.emplace_back(setting.summary_key);
  return keys;
}

Json summary_json(const RunOutcome& o) {
  Json j = Json::object();
  add_plan(j, o);
  add_steps(j, o.statistics, o.times);
  add_measures(j, o);
  add_ending(j, o);
  j["parameters"] = o.plan.parameters;
  if (const auto* scene = std::get_if<SceneSource>(&o.plan.source)) j["scene"] = scene->path.string();
  j["initial_projection"] = initial_projection_json(o.statistics);
  add_drifts(j, o.statistics);
  j[summary_key("threads")] = o.plan.threads;
  j[summary_key("parts")] = o.plan.parts;
  const NewtonTimings& phases = o.statistics.phase_seconds;
  j["phase_seconds"] = {
      {"assembly", phases.assembly}, {"factorization", phases.factorization}, {"solve", phases.solve}};
  j["factorization"] = factorization_json(o.factorization);
  j["run_id"] = o.plan.run_id;
  return j;
}

}  // namespace noether
