/// Whether a checkpoint can be continued (docs/output.md, "Checkpoints"): its state is one its run
/// saved (check_saved_state), it continues the run whose outputs its directory holds
/// (read_checkpoint), and it fits the model rebuilt from its options (check_resumable).
#include <noether/apps/checkpoint.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/json_reader.hpp>
#include <noether/apps/run_parts.hpp>
#include <noether/apps/summary_json.hpp>
#include <noether/apps/timeseries_csv.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace fs = std::filesystem;
namespace {

/// What a checkpoint that its run would not have written is refused with.
constexpr const char* kNotWritten =
    ": the file was edited or damaged; restore the checkpoint.json the run wrote, or start the run again";

/// 'path', as messages quote every name (engine/quote.hpp: hidden characters escaped).
std::string quoted(const fs::path& path) { return quote(path.string()); }

/// The bytes of the file at path (a symlink to one is followed). CheckpointError naming it when it
/// is not a regular file or cannot be read, followed by `consequence` (what that leaves undone).
std::string read_file(const fs::path& path, const std::string& consequence) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::is_directory(status)) throw CheckpointError(quoted(path) + " is a directory, not a file: " + consequence);
  if (!error && !fs::is_regular_file(status))
    throw CheckpointError(quoted(path) + " is not a regular file (a device, a pipe or a socket): " + consequence);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError("cannot read " + quoted(path) + " (" + std::strerror(errno) + "): " + consequence);
  try {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception& e) {  // a read error (EIO), thrown by the stream buffer
    throw CheckpointError("cannot read " + quoted(path) + " (" + e.what() + "): " + consequence);
  }
}

/// directory/summary.json as JSON, none when there is no such entry. CheckpointError when it is
/// there but is no summary: the checkpoint cannot then be checked against the run it continues.
std::optional<nlohmann::json> read_summary(const fs::path& directory) {
  const fs::path file = directory / "summary.json";
  if (!fs::exists(fs::symlink_status(file))) return std::nullopt;
  const std::string consequence = "the checkpoint cannot be checked against the run whose outputs " +
                                  quoted(directory) + " holds; start the run again";
  const std::string text = read_file(file, consequence);
  try {
    nlohmann::json summary = parse_json(text, quoted(file));
    if (summary.is_object()) return summary;
  } catch (const std::invalid_argument& e) {
    throw CheckpointError(std::string(e.what()) + ": " + consequence);
  }
  throw CheckpointError(quoted(file) + " is not a JSON object: " + consequence);
}

/// Refuses a checkpoint of another run than the one summary.json describes (another run_id), or
/// whose options give a key of summary_plan_keys() another value than the summary: the rows in
/// directory were computed by that run, with those settings, and the resumed run continues them.
void check_same_run(const Checkpoint& c, const nlohmann::json& summary, const fs::path& directory) {
  const std::string file = quoted(directory / Checkpoint::kFileName);
  const std::string summary_file = quoted(directory / "summary.json");
  const auto id = summary.find("run_id");
  if (!c.run_id.empty() && (id == summary.end() || *id != c.run_id))
    throw CheckpointError(file + " belongs to another run (run_id " + c.run_id + ") than the outputs in " +
                          quoted(directory) + " (" + summary_file +
                          (id == summary.end() ? " names no run_id" : " names run_id " + id->dump()) +
                          "): a later run wrote into the directory, and resuming would cut its rows; the checkpoint's "
                          "run cannot be continued: start it again");
  RunOptions options = c.options;
  options.output_dir = directory;
  RunOutcome planned;
  try {
    planned.plan = plan_run(options);
  } catch (const std::invalid_argument& e) {
    throw CheckpointError(file + ": /options: " + e.what());
  }
  const nlohmann::json expected = nlohmann::json::parse(summary_json(planned).dump());  // as the summary reads back
  const auto shown = [](const nlohmann::json& object, const std::string& key) {
    return object.contains(key) ? object[key].dump() : std::string("nothing");
  };
  for (const std::string& key : summary_plan_keys()) {
    if (expected.contains(key) == summary.contains(key) && (!expected.contains(key) || expected[key] == summary[key]))
      continue;
    throw CheckpointError(file + " gives " + key + " = " + shown(expected, key) + ", but " + summary_file +
                          " says the outputs in " + quoted(directory) + " were computed with " + key + " = " +
                          shown(summary, key) + " (a resumed run continues with the settings that computed its rows)" +
                          kNotWritten);
  }
}

/// The time series the checkpoint continues: timeseries.csv.partial, else timeseries.csv.
fs::path timeseries_file(const fs::path& directory) {
  const fs::path partial = directory / TimeseriesCsv::kPartialFileName;
  if (fs::is_regular_file(fs::symlink_status(partial))) return partial;
  return directory / TimeseriesCsv::kFileName;
}

/// The first `length` bytes of in: how many lines they hold (each ended by a newline) and where
/// the last of them starts.
std::pair<std::uint64_t, std::uint64_t> count_lines(std::ifstream& in, std::uint64_t length) {
  std::vector<char> block(std::size_t{1} << 20);
  std::uint64_t lines = 0, last_start = 0;
  in.seekg(0);
  for (std::uint64_t at = 0; at < length && in;) {
    const std::uint64_t n = std::min<std::uint64_t>(block.size(), length - at);
    in.read(block.data(), static_cast<std::streamsize>(n));
    for (std::uint64_t i = 0; i < n; ++i)
      if (block[i] == '\n') {
        ++lines;
        if (at + i + 1 < length) last_start = at + i + 1;
      }
    at += n;
  }
  return {lines, last_start};
}

/// The time (the first column) of the row that starts at byte `start` of in; NaN when it has none.
double row_time(std::ifstream& in, std::uint64_t start) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(start));
  std::string field;
  std::getline(in, field, ',');
  double t = std::numeric_limits<double>::quiet_NaN();
  std::from_chars(field.data(), field.data() + field.size(), t);
  return t;
}

/// Checks that the time series the run continues is the one the checkpoint counts: it holds
/// timeseries_length bytes ending a row, as many rows as the run wrote up to its last row
/// (steps 0, output_every, ..., recorder.last_row_step), the last one at that row's time.
void check_timeseries(const fs::path& directory, const Checkpoint& c) {
  const fs::path file = timeseries_file(directory);
  std::ifstream in(file, std::ios::binary);
  if (!in || !fs::is_regular_file(fs::symlink_status(file)))
    throw CheckpointError("the checkpoint in " + quoted(directory) + " continues a time series, but neither " +
                          TimeseriesCsv::kPartialFileName + " nor " + TimeseriesCsv::kFileName + " is there");
  const std::uint64_t length = c.timeseries_length, size = fs::file_size(file);
  const std::string not_continued = ": the time series is not the one the checkpoint continues";
  if (size < length || length == 0)
    throw CheckpointError(quoted(file) + " holds " + std::to_string(size) + " bytes, but the checkpoint says " +
                          std::to_string(length) + " were written" + not_continued);
  char last = 0;
  in.seekg(static_cast<std::streamoff>(length - 1));
  in.get(last);
  if (last != '\n')
    throw CheckpointError(quoted(file) + " does not end a row at byte " + std::to_string(length) +
                          ", where the checkpoint says the rows written end" + not_continued);
  const auto [lines, last_start] = count_lines(in, length);
  const std::int64_t every = c.options.output_every, row_step = c.recorder.last_row_step;
  const auto rows = static_cast<std::uint64_t>(row_step / every + 1);
  if (lines != rows + 1)
    throw CheckpointError(quoted(file) + " holds " + std::to_string(lines == 0 ? 0 : lines - 1) + " rows in the " +
                          std::to_string(length) + " bytes the checkpoint counts, but its run wrote " +
                          std::to_string(rows) + " there (steps 0 to " + std::to_string(row_step) + ", every " +
                          std::to_string(every) + ")" + not_continued);
  const double t = row_time(in, last_start);
  const bool state_row = row_step == c.state.step;
  if (state_row ? std::bit_cast<std::uint64_t>(t) != std::bit_cast<std::uint64_t>(c.state.t) : !(t < c.state.t))
    throw CheckpointError(quoted(file) + ": the row of step " + std::to_string(row_step) + " is at t = " +
                          format_exact(t) + (state_row ? ", but the checkpoint's state of that step is at t = "
                                                       : ", not before the checkpoint's state at t = ") +
                          format_exact(c.state.t) + not_continued);
}

/// How far from step x h rounding may put a fixed-step run's t after `step` steps: each addition
/// t += h (or of a substep, within a refined step) rounds by at most half an ulp of the sum, and
/// eps |t| per addition bounds them with room to spare.
double rounding_of_steps(std::int64_t step, double h, const RunStatistics& progress) {
  double additions = static_cast<double>(step);
  const double substeps = std::abs(h) / progress.smallest_substep;  // at most, in one refined step
  if (progress.refined_steps > 0 && std::isfinite(substeps)) additions += static_cast<double>(progress.refined_steps) * substeps;
  return additions * std::numeric_limits<double>::epsilon() * std::abs(static_cast<double>(step) * h);
}

/// The run's end: the state must be before it (no checkpoint is written after the last step), and
/// for a fixed-step run at its step's time.
void check_before_end(const Checkpoint& c, const RunConfiguration& run) {
  const State& s = c.state;
  const std::string settings = " (t_end = " + format_exact(run.t_end) + ", h = " + format_exact(run.h) + ")";
  if (find_stepper(run.stepper).adaptive_step_size) {
    if (!(s.t < run.t_end))
      throw JsonInputError("/state/t", "is " + format_exact(s.t) + ", at or past t_end = " + format_exact(run.t_end) +
                                           ", where the run ends without a checkpoint" + kNotWritten);
    return;
  }
  const std::int64_t last = step_count(run);
  if (s.step >= last)
    throw JsonInputError("/state/step", "is " + std::to_string(s.step) + ", at or past the run's last step, " +
                                            std::to_string(last) + settings + ", after which it writes no checkpoint" +
                                            kNotWritten);
  const double reached = static_cast<double>(s.step) * run.h, rounding = rounding_of_steps(s.step, run.h, c.progress);
  if (!(std::abs(s.t - reached) <= rounding))
    throw JsonInputError("/state/t", "is " + format_exact(s.t) + ", but step " + std::to_string(s.step) + " of h = " +
                                         format_exact(run.h) + " ends at t = " + format_exact(reached) +
                                         " (to within the rounding of the additions that reach it, " +
                                         format_number(rounding) + ")" + kNotWritten);
}

}  // namespace

void check_saved_state(const Checkpoint& c) {
  const State& s = c.state;
  if (c.progress.steps != s.step)
    throw JsonInputError("/progress/steps", "is " + std::to_string(c.progress.steps) + ", the state's step is " +
                                                std::to_string(s.step) + kNotWritten);
  if (s.step % c.options.checkpoint_every != 0)
    throw JsonInputError("/state/step", "is " + std::to_string(s.step) + ", not a multiple of checkpoint_every = " +
                                            std::to_string(c.options.checkpoint_every) + kNotWritten);
  RunConfiguration run;
  try {
    run = resolve_run_configuration(c.options);
  } catch (const std::invalid_argument& e) {
    throw JsonInputError("/options", e.what());
  }
  check_before_end(c, run);
  if (std::bit_cast<std::uint64_t>(c.progress.t_reached) != std::bit_cast<std::uint64_t>(s.t))
    throw JsonInputError("/progress/t_reached", "is " + format_exact(c.progress.t_reached) + ", the state's t is " +
                                                    format_exact(s.t) + kNotWritten);
  const std::int64_t every = c.options.output_every, row = s.step / every * every;
  if (c.recorder.last_row_step != row)
    throw JsonInputError("/recorder/last_row_step", "is " + std::to_string(c.recorder.last_row_step) +
                                                        ", but the last row written by step " + std::to_string(s.step) +
                                                        " every " + std::to_string(every) + " steps is step " +
                                                        std::to_string(row) + "'s" + kNotWritten);
}

/// The scene that a checkpoint of a run over parts names by its copy, read outlined from
/// directory/scene.json once its length and digest are those of `copy` (CheckpointWriter wrote it).
std::shared_ptr<const Scene> read_copied_scene(const fs::path& directory, const SceneCopy& copy) {
  const fs::path file = directory / SceneCopy::kFileName;
  const std::string consequence = "the run's scene is lost; restore the file the run wrote, or start the run again";
  auto text = std::make_shared<const std::string>(read_file(file, consequence));
  if (const SceneCopy found = scene_copy_of(*text); found != copy)
    throw CheckpointError(quoted(file) + " is not the scene " + quoted(directory / Checkpoint::kFileName) +
                          " names (" + std::to_string(found.bytes) + " bytes of digest " + found.digest + ", not " +
                          std::to_string(copy.bytes) + " of " + copy.digest + "): " + consequence);
  return std::make_shared<const Scene>(parse_scene(std::move(text), file.string(), SceneBuild::outlined));
}

Checkpoint read_checkpoint(const fs::path& directory) {
  const fs::path file = directory / Checkpoint::kFileName;
  if (!fs::is_directory(directory))
    throw CheckpointError(quoted(directory) + " is not a directory: give the --out directory of a run");
  if (!fs::exists(fs::symlink_status(file)))
    throw CheckpointError("no checkpoint in " + quoted(directory) + ": " + quoted(file) +
                          " is missing (a run writes it with --checkpoint-every N)");
  const std::string text = read_file(file, "there is no checkpoint to resume from; start the run again");
  const std::optional<nlohmann::json> summary = read_summary(directory);
  if (summary && summary->contains("status") && (*summary)["status"] == "completed")
    throw CheckpointError("nothing to resume: the run completed (" + quoted(directory / "summary.json") + " says so)");
  Checkpoint checkpoint = parse_checkpoint(text, quoted(file));
  if (SceneSource* scene = checkpoint.options.scene ? &*checkpoint.options.scene : nullptr; scene && scene->copy)
    scene->scene = read_copied_scene(directory, *scene->copy);
  if (summary) check_same_run(checkpoint, *summary, directory);
  check_timeseries(directory, checkpoint);
  return checkpoint;
}

Checkpoint read_part_checkpoint(const fs::path& directory, const Checkpoint& whole, int process) {
  std::string found;  // what the part files hold, for the refusal
  for (const bool next : {false, true}) {
    const fs::path file = directory / part_checkpoint_name(process, next);
    if (!fs::exists(fs::symlink_status(file))) continue;
    Checkpoint part = parse_checkpoint(read_file(file, "process " + std::to_string(process) + "'s part is lost; start the run again"), quoted(file));
    if (part.run_id == whole.run_id && part.state.step == whole.state.step && part.processes == whole.processes &&
        part.process == process) {
      part.options = whole.options;  // a part's file holds none: checkpoint.json holds its run's
      try {
        check_saved_state(part);
      } catch (const std::invalid_argument& e) {
        throw CheckpointError(quoted(file) + ": " + e.what());
      }
      return part;
    }
    found += (found.empty() ? "" : ", ") + quoted(file) + " is of run " + part.run_id + " step " +
             std::to_string(part.state.step) + " (process " + std::to_string(part.process) + " of " +
             std::to_string(part.processes) + ")";
  }
  throw CheckpointError(quoted(directory / Checkpoint::kFileName) + " (run " + whole.run_id + ", step " +
                        std::to_string(whole.state.step) + ", " + std::to_string(whole.processes) +
                        " processes) has no part of process " + std::to_string(process) + " in " + quoted(directory) +
                        (found.empty() ? " (" + quoted(directory / part_checkpoint_name(process)) + " is missing)"
                                       : ": " + found) +
                        "; restore the files the run wrote, or start the run again");
}

void check_resumable(const Checkpoint& checkpoint, const Model& model, const System& stepped, Stepper& stepper,
                     const fs::path& checkpoint_file) {
  const std::string file = quoted(checkpoint_file);
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

std::string checkpoint_file_name(const Checkpoint& checkpoint) {
  return checkpoint.process == 0 ? Checkpoint::kFileName : part_checkpoint_name(checkpoint.process);
}

std::optional<Checkpoint> resumed_part(const RunOptions& options) {
  if (!options.resume) return std::nullopt;
  const Checkpoint& whole = *options.resume;
  const int processes = options.distribution ? options.distribution->ranks() : 1;
  const std::string file = quote((*options.output_dir / Checkpoint::kFileName).string());
  if (whole.processes > 0 && (!runs_over_parts(options) || processes != whole.processes))
    throw CheckpointError(file + " was written by a run over parts on " + std::to_string(whole.processes) +
                          " processes, each holding its part's state: resume it on " +
                          std::to_string(whole.processes) + " (mpirun -np " + std::to_string(whole.processes) +
                          " noether resume DIR), not on " + std::to_string(processes));
  if (whole.processes == 0 && runs_over_parts(options))
    throw CheckpointError(file + " holds the whole model's state, not a run over parts' (its options say parts on): "
                          "the file was edited or damaged");
  if (!runs_over_parts(options)) return std::nullopt;
  std::optional<Checkpoint> part;
  const int rank = options.distribution->rank();
  agreed_over_parts(*options.distribution, [&] {  // every process, rank 0 with nothing to read
    if (rank != 0) part = read_part_checkpoint(*options.output_dir, whole, rank);
  });
  return part;
}

}  // namespace noether
