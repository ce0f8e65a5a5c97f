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
  rerun.write_reactions = options.write_reactions;  // the resumed rows have the columns of the rows before
  rerun.parts = plan.parts ? PartsChoice::on : PartsChoice::off;  // auto resolved: the run resumes as it ran
  return rerun;
}

std::string part_checkpoint_name(int process, bool next) {
  return "checkpoint.part" + std::to_string(process) + (next ? ".next" : "") + ".json";
}

CheckpointWriter::CheckpointWriter(const RunOptions& options, const RunPlan& plan, RunOutputs* outputs,
                                   const Distribution* parts, std::shared_ptr<const std::string> scene_text)
    : options_(rerun_options(plan, options)),
      run_id_(plan.run_id),
      outputs_(outputs),
      parts_(parts),
      seconds_before_(options.resume ? options.resume->wall_seconds : 0.0),
      start_(std::chrono::steady_clock::now()) {
  if (parts && parts->rank() != 0)
    directory_.emplace(*options.output_dir, options.file_calls ? *options.file_calls : system_file_calls(),
                       OutputDirectory::Lock::none);
  if (parts && options_.scene && !options_.scene->copy) write_scene_copy(scene_text);
}

void CheckpointWriter::write_scene_copy(const std::shared_ptr<const std::string>& text) {
  if (directory_) return write_agreed(*parts_, [] {});  // process 0 writes it
  if (!text) throw std::logic_error("CheckpointWriter: process 0 of a run over a scene's parts was given no scene text");
  write_agreed(*parts_, [&] { outputs_->replace_file(SceneCopy::kFileName, *text); });
  options_.scene->copy = scene_copy_of(*text);
}

void CheckpointWriter::after_step(const State& state, double next_h, Stepper& stepper, const RunRecorder& recorder) {
  const double wall_seconds =
      seconds_before_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  Checkpoint checkpoint{run_id_, options_, state, next_h, stepper.checkpoint(), recorder.statistics(),
                        wall_seconds, recorder.continuation(), 0};
  if (parts_) {
    checkpoint.processes = parts_->ranks();
    checkpoint.process = parts_->rank();
  }
  if (directory_) return write_part(checkpoint);
  const auto write_whole = [&] {
    checkpoint.timeseries_length = outputs_->sync_timeseries();
    outputs_->replace_file(Checkpoint::kFileName, checkpoint_json(checkpoint));
  };
  if (!parts_) return write_whole();
  write_agreed(*parts_, [] {});  // the others write their parts
  write_agreed(*parts_, write_whole);
  write_agreed(*parts_, [] {});  // the others rename theirs
}

void CheckpointWriter::write_part(const Checkpoint& checkpoint) {
  const std::string next = part_checkpoint_name(checkpoint.process, true);
  write_agreed(*parts_, [&] { directory_->replace(next, checkpoint_json(checkpoint)); });
  write_agreed(*parts_, [] {});  // process 0 writes checkpoint.json, which names this step
  write_agreed(*parts_, [&] { directory_->rename(next, part_checkpoint_name(checkpoint.process)); });
}

}  // namespace noether
