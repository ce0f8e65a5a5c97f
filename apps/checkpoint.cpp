/// Checkpoints in a run: writing them, and checking that one can be continued (the file's
/// format: checkpoint_json.cpp).
#include <noether/apps/checkpoint.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include <noether/apps/timeseries_csv.hpp>

namespace noether {
namespace {

/// 'path', built piece by piece (GCC 12 warns falsely, -Wrestrict, on "'" + string).
std::string quoted(const std::filesystem::path& path) {
  std::string text = "'";
  text += path.string();
  text += '\'';
  return text;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError("cannot read " + quoted(path) + ": " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The status summary.json gives, "" when it cannot be read.
std::string summary_status(const std::filesystem::path& directory) {
  std::ifstream in(directory / "summary.json");
  if (!in) return "";
  try {
    const nlohmann::json summary = nlohmann::json::parse(in);
    return summary.value("status", "");
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

/// Checks that the time series the run continues holds `length` bytes ending a row.
void check_timeseries(const std::filesystem::path& directory, std::uint64_t length) {
  std::filesystem::path file = directory / TimeseriesCsv::kPartialFileName;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(file))) file = directory / TimeseriesCsv::kFileName;
  std::ifstream in(file, std::ios::binary);
  if (!in || !std::filesystem::is_regular_file(std::filesystem::symlink_status(file)))
    throw CheckpointError("the checkpoint in " + quoted(directory) + " continues a time series, but neither " +
                          TimeseriesCsv::kPartialFileName + " nor " + TimeseriesCsv::kFileName + " is there");
  const std::uint64_t size = std::filesystem::file_size(file);
  if (size < length || length == 0)
    throw CheckpointError(quoted(file) + " holds " + std::to_string(size) + " bytes, but the checkpoint says " +
                          std::to_string(length) + " were written: the time series is not the one the checkpoint continues");
  char last = 0;
  in.seekg(static_cast<std::streamoff>(length - 1));
  in.get(last);
  if (last != '\n')
    throw CheckpointError(quoted(file) + " does not end a row at byte " + std::to_string(length) +
                          ", where the checkpoint says the rows written end");
}

}  // namespace

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

Checkpoint read_checkpoint(const std::filesystem::path& directory) {
  const std::filesystem::path file = directory / Checkpoint::kFileName;
  if (!std::filesystem::is_directory(directory))
    throw CheckpointError(quoted(directory) + " is not a directory: give the --out directory of a run");
  if (!std::filesystem::exists(std::filesystem::symlink_status(file)))
    throw CheckpointError("no checkpoint in " + quoted(directory) + ": " + quoted(file) +
                          " is missing (a run writes it with --checkpoint-every N)");
  if (summary_status(directory) == "completed")
    throw CheckpointError("nothing to resume: the run completed (" + quoted(directory / "summary.json") + " says so)");
  Checkpoint checkpoint = parse_checkpoint(read_file(file), quoted(file));
  check_timeseries(directory, checkpoint.timeseries_length);
  return checkpoint;
}

void check_resumable(const Checkpoint& checkpoint, const Model& model, const System& stepped, Stepper& stepper,
                     const std::filesystem::path& directory) {
  const std::string file = quoted(directory / Checkpoint::kFileName);
  const auto refuse = [&](const std::string& what) {
    return CheckpointError(file + " does not fit the model of its options: " + what);
  };
  try {
    check_step_input(stepped, checkpoint.state, checkpoint.next_h, stepper.name());
    stepper.restore_history(checkpoint.stepper_history);
  } catch (const std::invalid_argument& e) {
    throw refuse(e.what());
  }
  if (checkpoint.recorder.invariants_initial.size() != model.invariants.size())
    throw refuse("it holds the initial values of " + std::to_string(checkpoint.recorder.invariants_initial.size()) +
                 " invariants, the model has " + std::to_string(model.invariants.size()));
  if (checkpoint.progress.conserved_momenta.size() != model.conserved_momenta.names().size())
    throw refuse("it holds " + std::to_string(checkpoint.progress.conserved_momenta.size()) +
                 " conserved momenta, the model declares " + std::to_string(model.conserved_momenta.names().size()));
}

CheckpointWriter::CheckpointWriter(const RunOptions& options, const RunPlan& plan, RunOutputs& outputs)
    : options_(rerun_options(plan, options)),
      outputs_(outputs),
      seconds_before_(options.resume ? options.resume->wall_seconds : 0.0),
      start_(std::chrono::steady_clock::now()) {}

void CheckpointWriter::after_step(const State& state, double next_h, Stepper& stepper, const RunRecorder& recorder) {
  if (state.step % options_.checkpoint_every != 0) return;
  const double wall_seconds =
      seconds_before_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  Checkpoint checkpoint{options_,    state, next_h, stepper.checkpoint(), recorder.statistics(), wall_seconds,
                        recorder.continuation(), 0};
  checkpoint.timeseries_length = outputs_.sync_timeseries();
  outputs_.replace_file(Checkpoint::kFileName, checkpoint_json(checkpoint));
}

}  // namespace noether
