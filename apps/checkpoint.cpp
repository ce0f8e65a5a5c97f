/// Writing checkpoints in a run: the options that run it again, and the writer (reading one and
/// checking that it can be continued: checkpoint_resume.cpp; the file's format: checkpoint_json.cpp).
#include <noether/apps/checkpoint.hpp>

namespace noether {

RunOptions rerun_options(const RunPlan& plan, const RunOptions& options) {
  RunOptions rerun;
  if (const auto* scene = std::get_if<SceneSource>(&plan.source)) {
    rerun.scene = *scene;
  } else {
    const auto& scenario = std::get<ScenarioSource>(plan.source);
    rerun.scenario = scenario.name;
    rerun.overrides = scenario.parameters;
  }
  rerun.settings = plan.configuration;
  rerun.threads = options.threads;
  rerun.output_every = options.output_every;
  rerun.checkpoint_every = options.checkpoint_every;
  return rerun;
}

CheckpointWriter::CheckpointWriter(const RunOptions& options, const RunPlan& plan, RunOutputs& outputs)
    : options_(rerun_options(plan, options)),
      run_id_(plan.run_id),
      outputs_(outputs),
      seconds_before_(options.resume ? options.resume->wall_seconds : 0.0),
      start_(std::chrono::steady_clock::now()) {}

void CheckpointWriter::after_step(const State& state, double next_h, Stepper& stepper, const RunRecorder& recorder) {
  const double wall_seconds =
      seconds_before_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  Checkpoint checkpoint{run_id_, options_, state, next_h, stepper.checkpoint(), recorder.statistics(),
                        wall_seconds, recorder.continuation(), 0};
  checkpoint.timeseries_length = outputs_.sync_timeseries();
  outputs_.replace_file(Checkpoint::kFileName, checkpoint_json(checkpoint));
}

}  // namespace noether
