#include <noether/apps/runner.hpp>

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <noether/apps/run_recorder.hpp>
#include <noether/apps/summary_json.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

/// The shortest text that reads back as value, for messages ("-0.1", not "-0.10000000000000001").
std::string shortest_text(double value) {
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), end);
}

/// Scenario parameters with --h / --t applied over the --set overrides.
ParameterValues resolve_run_parameters(const Scenario& scenario, const RunOptions& options) {
  ParameterValues overrides = options.overrides;
  if (options.h) overrides["h"] = *options.h;
  if (options.t_end) overrides["t_end"] = *options.t_end;
  return resolve_parameters(scenario, overrides);
}

/// The result before any step: names, resolved parameters, h, t_end; checks every option.
RunResult plan_run(const RunOptions& options) {
  require(options.threads >= 1, "threads must be at least 1, got " + std::to_string(options.threads));
  require(options.output_every >= 1,
          "output interval (every) must be at least 1 step, got " + std::to_string(options.output_every));
  const Scenario& scenario = find_scenario(options.scenario);
  find_stepper(options.stepper);  // an unknown name fails here, before the model is built
  RunResult result;
  result.scenario = scenario.name;
  result.stepper = options.stepper;
  result.solver = std::string(to_string(options.solver));
  result.threads = options.threads;
  result.parameters = resolve_run_parameters(scenario, options);
  result.h = result.parameters.at("h");
  result.t_end = result.parameters.at("t_end");
  require(result.h > 0.0, "time step h must be > 0, got " + shortest_text(result.h));
  require(result.t_end >= 0.0, "end time t_end must be >= 0, got " + shortest_text(result.t_end));
  require(result.parameters.at("newton_tol") > 0.0, "Newton tolerance newton_tol must be > 0 (e.g. 1e-10), got " +
                                                        shortest_text(result.parameters.at("newton_tol")));
  require(result.t_end / result.h <= std::numeric_limits<int>::max(),
          "t_end / h = " + shortest_text(result.t_end / result.h) + " steps is too many; at most " +
              std::to_string(std::numeric_limits<int>::max()));
  return result;
}

/// Makes the stepper and advances the scenario's initial state round(t_end / h) times by h.
void integrate(const Model& model, const RunOptions& options, const RunResult& plan, RunRecorder& recorder) {
  StepperOptions stepper_options;
  stepper_options.solver = options.solver;
  stepper_options.newton.residual_tolerance = plan.parameters.at("newton_tol");
  const std::unique_ptr<Stepper> stepper = find_stepper(options.stepper).make(*model.system, stepper_options);
  State state = model.initial;
  stepper->initialize(state);
  recorder.record_initial(state, stepper->conserved_energy(state));
  const std::int64_t steps = std::llround(plan.t_end / plan.h);
  for (std::int64_t n = 0; n < steps; ++n) {
    const NewtonReport report = stepper->step(state, plan.h);
    recorder.record_step(state, stepper->conserved_energy(state), report);
  }
}

/// Runs integrate, turning a Newton failure or a stepper refusal into ok = false.
void integrate_recording_failure(const Model& model, const RunOptions& options, RunResult& result) {
  RunRecorder recorder(model, options, std::llround(result.t_end / result.h), result);
  try {
    integrate(model, options, result, recorder);
    result.ok = true;
  } catch (const NewtonError& e) {
    result.error = e.what();
  } catch (const StepperRefusal& e) {
    result.error = e.what();
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

RunResult run(const RunOptions& options) {
  RunResult result = plan_run(options);
  const Model model = find_scenario(options.scenario).build(result.parameters);
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
