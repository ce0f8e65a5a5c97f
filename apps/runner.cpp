#include <noether/apps/runner.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/run_recorder.hpp>
#include <noether/apps/summary_json.hpp>
#include <noether/engine/format.hpp>
#include <noether/solvers/redundancy.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

/// The result before any step: names, the run configuration and the resolved scenario
/// parameters; checks every option.
RunResult plan_run(const RunOptions& options) {
  require(options.threads >= 1, "threads must be at least 1, got " + std::to_string(options.threads));
  require(options.output_every >= 1,
          "output interval (every) must be at least 1 step, got " + std::to_string(options.output_every));
  RunResult result;
  result.configuration = resolve_run_configuration(options);  // fails before the model is built
  result.threads = options.threads;
  if (options.scene) {
    require(options.scenario.empty() && options.overrides.empty(), "a run takes a scenario or a scene file, not both");
    result.scenario = options.scene->scene->name;
    result.source = *options.scene;
    return result;
  }
  const Scenario& scenario = find_scenario(options.scenario);
  result.scenario = scenario.name;
  result.parameters = resolve_parameters(scenario, options.overrides);
  result.source = ScenarioSource{scenario.name, result.parameters};
  return result;
}

/// The model's system without the equations that depend on the others along the motion
/// (Redundancy::drop; result lists them), or nullptr when there are none. Throws StepperRefusal
/// naming them under Redundancy::refuse.
std::unique_ptr<System> without_redundancy(const Model& model, const RunConfiguration& run, RunResult& result) {
  const ConstraintRank redundancy = structural_redundancy(*model.system, model.initial.q);
  if (redundancy.dependent.empty()) return nullptr;
  std::vector<Index> rows;
  std::vector<std::string> descriptions;
  for (const DependentEquation& e : redundancy.dependent) {
    rows.push_back(e.row);
    descriptions.push_back(describe_dependency(*model.system, e));
  }
  if (run.redundancy == RunConfiguration::Redundancy::refuse) {
    std::string list;
    for (const std::string& d : descriptions) list += (list.empty() ? "" : "; ") + d;
    throw StepperRefusal(std::to_string(rows.size()) + " constraint equations depend on the others along the motion: " +
                         list + "; remove them from the model, or run with --redundant drop");
  }
  result.dropped_equations = std::move(descriptions);
  return without_equations(*model.system, rows);
}

/// Makes the stepper on `system` and advances `state` (the scenario's initial state)
/// round(t_end / h) times by h; on a NewtonError state is the last good one.
void integrate(const System& system, const RunConfiguration& run, RunRecorder& recorder, State& state) {
  const std::unique_ptr<Stepper> stepper = find_stepper(run.stepper).make(system, run.stepper_options());
  stepper->initialize(state);
  recorder.record_initial(state, stepper->conserved_energy(state));
  const std::int64_t steps = std::llround(run.t_end / run.h);
  for (std::int64_t n = 0; n < steps; ++n) {
    const StepReport report = stepper->step(state, run.h);
    recorder.record_step(state, stepper->conserved_energy(state), report);
  }
}

/// Runs integrate, turning a Newton failure or a stepper refusal into ok = false; after a Newton
/// failure the last good state closes the time series.
void integrate_recording_failure(const Model& model, const RunOptions& options, RunResult& result) {
  const RunConfiguration& run = result.configuration;
  RunRecorder recorder(model, options, std::llround(run.t_end / run.h), result);
  State state = model.initial;
  std::unique_ptr<System> reduced;  // the system stepped when equations were dropped
  try {
    reduced = without_redundancy(model, run, result);
    const System& stepped = reduced ? *reduced : *model.system;
    result.initial_projection = project_initial_state(stepped, state);
    result.initial_projection_note = describe(stepped, result.initial_projection);
    integrate(stepped, run, recorder, state);
    result.ok = true;
  } catch (const NewtonError& e) {
    // Rank loss of the equations stepped (the dropped ones are dependent by construction).
    const std::string rank_loss = describe_rank_loss(reduced ? *reduced : *model.system, state.q);
    result.error = e.what();
    if (!rank_loss.empty()) result.error += "; at t = " + format_number(state.t) + ", the last good state, " + rank_loss;
    result.failed_step = state.step + 1;
    result.failed_t = state.t;
    recorder.record_last_good(state);
  } catch (const StepperRefusal& e) {
    result.error = e.what();
  } catch (const ProjectionError& e) {
    result.error = std::string("the initial values are off the constraints and cannot be projected onto them: ") + e.what();
  }
  recorder.finish();
}

/// Creates dir and its parents if missing; throws std::runtime_error naming the directory and
/// why it cannot be made (a std::filesystem message names neither the option nor the fix).
void create_output_directory(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw std::runtime_error("cannot create the output directory '" + dir.string() + "' (" + error.message() +
                             "): choose a writable --out directory");
}

}  // namespace

int all_cores() { return tbb::info::default_concurrency(); }

RunConfiguration resolve_run_configuration(const RunOptions& options) {
  RunConfiguration c = options.scene ? options.scene->scene->run : default_run_configuration(find_scenario(options.scenario));
  c.stepper = options.stepper.value_or(c.stepper);
  c.solver = options.solver.value_or(c.solver);
  c.h = options.h.value_or(c.h);
  c.t_end = options.t_end.value_or(c.t_end);
  c.newton.residual_tolerance = options.newton_tolerance.value_or(c.newton.residual_tolerance);
  c.newton.max_iterations = options.newton_max_iterations.value_or(c.newton.max_iterations);
  c.newton.modified = options.newton_modified.value_or(c.newton.modified);
  c.newton.refresh_contraction = options.newton_refresh_contraction.value_or(c.newton.refresh_contraction);
  c.max_refinement_depth = options.max_refinement_depth.value_or(c.max_refinement_depth);
  c.redundancy = options.redundancy.value_or(c.redundancy);
  c.scheme_parameters.insert(options.scheme_parameters.begin(), options.scheme_parameters.end());
  check_run_configuration(c);
  return c;
}

RunResult run(const RunOptions& options) {
  RunResult result = plan_run(options);
  const Model model = build_model(describe(result.source));
  if (options.output_dir) create_output_directory(*options.output_dir);
  const tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                         static_cast<std::size_t>(options.threads));
  const auto start = std::chrono::steady_clock::now();
  integrate_recording_failure(model, options, result);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.output_dir) write_summary_json(*options.output_dir / "summary.json", result);
  return result;
}

}  // namespace noether
