#include <noether/apps/summary_json.hpp>

#include <noether/apps/interrupt_signals.hpp>

namespace noether {
namespace {

/// The refined steps listed in the result, each as {step, t, substeps, smallest_substep}.
nlohmann::ordered_json refinements_json(const RunResult& result) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const RunResult::RefinedStep& r : result.refinements)
    list.push_back({{"step", r.step}, {"t", r.t}, {"substeps", r.substeps}, {"smallest_substep", r.smallest_substep}});
  return list;
}

/// The file's name, or null when there is none.
nlohmann::ordered_json file_or_null(const std::string& file) {
  return file.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(file);
}

}  // namespace

nlohmann::ordered_json count_or_null(const std::optional<RunResult::NewtonEvaluations>& counts,
                                     std::int64_t RunResult::NewtonEvaluations::*count) {
  return counts ? nlohmann::ordered_json((*counts).*count) : nlohmann::ordered_json();
}

nlohmann::ordered_json summary_json(const RunResult& result) {
  const RunConfiguration& run = result.plan.configuration;
  nlohmann::ordered_json j = {{"status", to_string(result.status)},
                              {"timeseries", file_or_null(result.timeseries_file)},
                              {"motion", file_or_null(result.motion_file)},
                              {"final_state", file_or_null(result.final_state_file)},
                              {"scenario", result.plan.scenario},
                              {"stepper", run.stepper},
                              {"solver", to_string(run.solver)},
                              {"h", run.h},
                              {"t_end", run.t_end},
                              {"newton_method", newton_method_name(run.newton)},
                              {"newton_tolerance", run.newton.residual_tolerance},
                              {"newton_max_iterations", run.newton.max_iterations},
                              {"newton_refresh_contraction", run.newton.refresh_contraction},
                              {"max_refinement_depth", run.max_refinement_depth},
                              {"redundant", redundancy_name(run.redundancy)},
                              {"scheme_parameters", resolved_scheme_parameters(run)},
                              {"steps", result.steps},
                              {"t_reached", result.t_reached},
                              {"step_size_min", result.step_size_min},
                              {"step_size_max", result.step_size_max},
                              {"condition_estimate_max", result.condition_estimate_max},
                              {"newton_iterations_total", result.newton_iterations_total},
                              {"newton_iterations_max", result.newton_iterations_max},
                              {"newton_factorizations_total", result.newton_factorizations_total},
                              {"newton_stalled_steps", result.newton_stalled_steps},
                              {"newton_stalled_residual_max", result.newton_stalled_residual_max},
                              {"newton_evaluations_total",
                               count_or_null(result.newton_evaluations, &RunResult::NewtonEvaluations::residuals)},
                              {"newton_matrix_evaluations_total",
                               count_or_null(result.newton_evaluations, &RunResult::NewtonEvaluations::with_matrix)},
                              {"setup_seconds", result.setup_seconds},
                              {"stepping_seconds", result.stepping_seconds},
                              {"closing_seconds", result.closing_seconds},
                              {"wall_seconds", result.wall_seconds},
                              {"energy_initial", result.energy_initial},
                              {"energy_final", result.energy_final},
                              {"energy_max_abs_increment", result.energy_max_abs_increment},
                              {"constraint_max_abs", result.constraint_max_abs},
                              {"velocity_constraint_max_abs", result.velocity_constraint_max_abs},
                              {"refined_steps", result.refined_steps},
                              {"smallest_substep", result.smallest_substep},
                              {"refinements", refinements_json(result)},
                              {"dropped_equations", result.dropped_equations},
                              {"ok", result.ok}};
  if (!result.ok) j["error"] = result.error;
  if (result.status == RunStatus::failed)
    j["failure"] = {{"cause", to_string(result.failure_cause)}, {"step", result.failed_step}, {"t", result.failed_t}};
  if (result.status == RunStatus::interrupted) j["interrupted_by"] = signal_name(result.interrupt_signal);
  j["parameters"] = result.plan.parameters;
  if (const auto* scene = std::get_if<SceneSource>(&result.plan.source)) j["scene"] = scene->path.string();
  const InitialProjection& projection = result.initial_projection;
  j["initial_projection"] = {{"projected", projection.projected()},
                             {"position_violation", projection.positions.largest},
                             {"position_correction", projection.position_correction},
                             {"velocity_violation", projection.velocities.largest},
                             {"velocity_correction", projection.velocity_correction},
                             {"note", result.initial_projection_note}};
  j["invariant_drifts"] = nlohmann::ordered_json::object();
  for (const auto& [name, drift] : result.invariant_drifts) j["invariant_drifts"][name] = drift;
  j["conserved_momenta"] = nlohmann::ordered_json::object();
  if (!result.conserved_momenta.empty()) {
    const Eigen::Vector3d& o = result.momenta_about;
    j["conserved_momenta"]["about"] = {o.x(), o.y(), o.z()};
    for (const RunResult::ConservedMomentum& c : result.conserved_momenta)
      j["conserved_momenta"][c.name] = {{"initial", c.initial}, {"final", c.final}, {"drift", c.drift}};
  }
  j["threads"] = result.plan.threads;
  j["phase_seconds"] = {{"assembly", result.phase_seconds.assembly},
                        {"factorization", result.phase_seconds.factorization},
                        {"solve", result.phase_seconds.solve}};
  return j;
}

}  // namespace noether
