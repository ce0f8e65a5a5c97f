/// Checkpoints (apps/checkpoint.hpp): the file reads back bitwise, and a run resumed from one, in
/// process, continues to the bytes of the run never stopped, for a scenario and a scene file; a
/// checkpoint its run would not have written, or that does not continue the run whose outputs its
/// directory holds (another run's, other settings, other rows), is refused.
/// tests/apps/check_resume.sh checks the command line: SIGTERM, stops right after and between
/// checkpoints, and the refusals.
#include <atomic>
#include <bit>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/apps/scene_copy.hpp>
#include <noether/engine/format.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same_bits(const Vector& a, const Vector& b) {
  if (a.size() != b.size()) return false;
  for (Index i = 0; i < a.size(); ++i)
    if (!same_bits(a(i), b(i))) return false;
  return true;
}

/// n finite doubles of random bit patterns (every exponent, sign and mantissa), with the edge
/// cases first: -0, the smallest subnormal, the largest and smallest finite, 0.1.
Vector awkward_values(Index n, std::mt19937_64& bits) {
  Vector v(n);
  const double edges[] = {-0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::lowest(), 0.1};
  for (Index i = 0; i < n; ++i) {
    double x = i < 5 ? edges[i] : std::bit_cast<double>(bits());
    while (!std::isfinite(x)) x = std::bit_cast<double>(bits());
    v(i) = x;
  }
  return v;
}

RunOptions scenario_options(const fs::path& out) {
  RunOptions options;
  options.scenario = "double-pendulum";
  options.configure().t_end = 0.37;
  options.output_every = 3;
  options.checkpoint_every = 10;
  options.threads = 1;
  options.output_dir = out;
  return options;
}

/// The time series' text with the cells of column `column` replaced by `cell` in the rows after
/// the first `rows_kept` (header not counted).
std::string with_column(const std::string& csv, const std::string& column, std::size_t rows_kept, const std::string& cell) {
  std::istringstream in(csv);
  std::string line, out;
  std::getline(in, line);
  out += line + '\n';
  std::size_t index = 0;
  for (std::size_t at = 0; line.substr(at, line.find(',', at) - at) != column; at = line.find(',', at) + 1) ++index;
  for (std::size_t row = 0; std::getline(in, line); ++row) {
    if (row >= rows_kept) {
      std::size_t begin = 0;
      for (std::size_t k = 0; k < index; ++k) begin = line.find(',', begin) + 1;
      line.replace(begin, line.find(',', begin) - begin, cell);
    }
    out += line + '\n';
  }
  return out;
}

/// Resumes the run in `copy` (a copy of a completed run's directory) from `checkpoint`; checks that
/// it completes with the rows of the run never stopped, whose directory is `reference`; those of a
/// checkpoint without work (version < 5) with `nan` in the `work` column after the checkpoint's rows.
RunOutcome resume_copy(const Checkpoint& checkpoint, const fs::path& copy, const fs::path& reference,
                       std::size_t work_unknown_after = std::numeric_limits<std::size_t>::max()) {
  RunOptions resumed = checkpoint.options;
  resumed.output_dir = copy;
  resumed.resume = &checkpoint;
  const RunOutcome result = run(resumed);
  CHECK(result.ok());
  CHECK(read_file(copy / "timeseries.csv") ==
        with_column(read_file(reference / "timeseries.csv"), "work", work_unknown_after, "nan"));
  return result;
}

/// Runs options to completion, then resumes a copy of its directory from its last checkpoint
/// (the time series cut back to it) and checks that the resumed run writes the same bytes.
void check_resume_in_process(const RunOptions& options, const fs::path& work) {
  const RunOutcome reference = run(options);
  REQUIRE(reference.ok());
  const fs::path copy = work / "resumed";
  fs::copy(*options.output_dir, copy);
  const Checkpoint checkpoint =
      parse_checkpoint(read_file(copy / Checkpoint::kFileName), (copy / Checkpoint::kFileName).string());
  CHECK(checkpoint.state.step > 0);
  CHECK(checkpoint.state.step < reference.statistics.steps);
  const RunOutcome result = resume_copy(checkpoint, copy, *options.output_dir);
  CHECK(result.statistics.newton_iterations_total == reference.statistics.newton_iterations_total);
  REQUIRE(result.statistics.newton_evaluations);
  REQUIRE(reference.statistics.newton_evaluations);
  CHECK(result.statistics.newton_evaluations->residuals == reference.statistics.newton_evaluations->residuals);
  CHECK(result.statistics.newton_evaluations->with_matrix == reference.statistics.newton_evaluations->with_matrix);
  CHECK(same_bits(result.statistics.energy_max_abs_increment, reference.statistics.energy_max_abs_increment));
  CHECK(same_bits(result.statistics.work_total, reference.statistics.work_total));
  CHECK(same_bits(result.statistics.energy_balance_max_abs, reference.statistics.energy_balance_max_abs));
  CHECK(same_bits(result.statistics.constraint_max_abs, reference.statistics.constraint_max_abs));
  CHECK(result.statistics.probe_maxima == reference.statistics.probe_maxima);
}

}  // namespace

TEST_CASE("a checkpoint reads back every double bitwise") {
  std::mt19937_64 bits(20);
  RunPlan plan;
  plan.source = ScenarioSource{"double-pendulum", {{"m1", 0.1}, {"l1", 1.3}}};
  plan.configuration.h = 0.1;
  plan.configuration.t_end = 1.0;
  RunOptions options;
  options.checkpoint_every = 3;
  Checkpoint written;
  written.run_id = "0123456789abcdef";
  written.options = rerun_options(plan, options);
  written.next_h = 0.1 * 3;
  written.timeseries_length = 12345;
  written.state.step = 3;
  written.state.t = 0.30000000000000004;
  written.state.q = awkward_values(40, bits);
  written.state.v = awkward_values(40, bits);
  written.state.p = awkward_values(40, bits);
  written.state.lambda = awkward_values(7, bits);
  written.stepper_history.put("predictor.v0", awkward_values(40, bits));
  written.progress.steps = 3;
  written.progress.t_reached = written.state.t;
  written.recorder.last_row_step = 3;
  written.progress.newton_evaluations = RunStatistics::NewtonEvaluations{1234, 567};
  written.progress.energy_initial = not_computed;
  written.progress.condition_estimate_max = std::numeric_limits<double>::infinity();
  written.recorder.invariants_initial = {awkward_values(3, bits)};
  written.recorder.step_size_last = -std::numeric_limits<double>::infinity();

  const Checkpoint read = parse_checkpoint(checkpoint_json(written), "test");
  CHECK(read.run_id == written.run_id);
  CHECK(read.state.step == 3);
  CHECK(same_bits(read.state.t, written.state.t));
  CHECK(same_bits(read.state.q, written.state.q));
  CHECK(same_bits(read.state.v, written.state.v));
  CHECK(same_bits(read.state.p, written.state.p));
  CHECK(same_bits(read.state.lambda, written.state.lambda));
  CHECK(std::isnan(read.state.discrete_energy));
  CHECK(same_bits(read.next_h, written.next_h));
  CHECK(read.stepper_history == written.stepper_history);
  CHECK(std::isnan(read.progress.energy_initial));
  CHECK(read.progress.condition_estimate_max == std::numeric_limits<double>::infinity());
  CHECK(read.recorder.step_size_last == -std::numeric_limits<double>::infinity());
  REQUIRE(read.recorder.invariants_initial.size() == 1);
  CHECK(same_bits(read.recorder.invariants_initial[0], written.recorder.invariants_initial[0]));
  CHECK(read.timeseries_length == 12345);
  REQUIRE(read.progress.newton_evaluations);
  CHECK(read.progress.newton_evaluations->residuals == 1234);
  CHECK(read.progress.newton_evaluations->with_matrix == 567);
  // A run resumed from version 1 saves its counts as null and reads them back as none.
  written.progress.newton_evaluations = std::nullopt;
  CHECK(!parse_checkpoint(checkpoint_json(written), "test").progress.newton_evaluations);
  CHECK(read.options.overrides == written.options.overrides);
  CHECK(read.options.checkpoint_every == 3);
  CHECK(read.options.settings->h == 0.1);
}

TEST_CASE("a run resumed in process from its checkpoint writes the bytes of the run never stopped") {
  SUBCASE("a scenario") {
    const TempDir work("checkpoint_scenario");
    check_resume_in_process(scenario_options(work.path / "run"), work.path);
  }
  SUBCASE("a scenario with actuators: the maxima of their torques and tracking errors continue") {
    const TempDir work("checkpoint_actuators");
    RunOptions options = scenario_options(work.path / "run");
    options.scenario = "robot-arm";
    options.configure().t_end = 0.2;
    options.checkpoint_every = 15;
    check_resume_in_process(options, work.path);
  }
  SUBCASE("a scene file, rebuilt from the checkpoint's copy of it") {
    const TempDir work("checkpoint_scene");
    const fs::path scene = fs::path(NOETHER_SOURCE_DIR) / "examples/scenes/double_fourbar.json";
    RunOptions options = scenario_options(work.path / "run");
    options.scenario.clear();
    options.scene = SceneSource{scene, std::make_shared<const Scene>(load_scene(scene))};
    options.settings = options.scene->scene->run;  // the scene's, in place of the scenario's
    options.configure().t_end = 0.05;
    options.checkpoint_every = 15;
    check_resume_in_process(options, work.path);
  }
}

TEST_CASE("a checkpoint of version 1 resumes to the same bytes, its evaluations not counted") {
  const TempDir work("checkpoint_version_1");
  const RunOptions options = scenario_options(work.path / "run");
  const RunOutcome reference = run(options);
  REQUIRE(reference.ok());
  REQUIRE(reference.statistics.newton_evaluations);
  CHECK(reference.statistics.newton_evaluations->residuals >= reference.statistics.newton_iterations_total);
  const fs::path copy = work.path / "resumed";
  fs::copy(*options.output_dir, copy);
  // Version 1 had no evaluation counts: version 7's file with its version set back to 1 is one
  // (its run_id and work, which version 1 did not have, are not read).
  std::string text = read_file(copy / Checkpoint::kFileName);
  const std::string version_7 = "\"version\":7,";
  REQUIRE(text.find(version_7) != std::string::npos);
  text.replace(text.find(version_7), version_7.size(), "\"version\":1,");
  const Checkpoint checkpoint = parse_checkpoint(text, "version-1 checkpoint");
  CHECK(!checkpoint.progress.newton_evaluations);
  CHECK(checkpoint.run_id.empty());
  // Rows of steps 0, 3, ..., up to the checkpoint's state (output_every 3).
  const auto rows_kept = static_cast<std::size_t>(checkpoint.state.step / options.output_every + 1);
  const RunOutcome result = resume_copy(checkpoint, copy, *options.output_dir, rows_kept);
  CHECK(result.statistics.newton_iterations_total == reference.statistics.newton_iterations_total);
  CHECK(!result.statistics.newton_evaluations);  // the evaluations before the checkpoint are unknown
  const auto summary = nlohmann::json::parse(read_file(copy / "summary.json"));
  CHECK(summary.at("newton_evaluations_total").is_null());
  CHECK(summary.at("newton_matrix_evaluations_total").is_null());

  CHECK(summary.at("work_total").is_null());  // the work before the checkpoint is unknown
  CHECK(summary.at("energy_balance_max_abs").is_null());

  const std::string version_8 = text.replace(text.find("\"version\":1,"), 12, "\"version\":8,");
  CHECK_THROWS_WITH_AS(parse_checkpoint(version_8, "from a later noether"),
                       doctest::Contains("/version: is 8; this noether reads versions 1 to 7"), CheckpointError);
}

TEST_CASE("a checkpoint keeps the count and residual of stalled solves, which versions 1 and 2 read as none") {
  const TempDir work("checkpoint_stalled");
  const RunOptions options = scenario_options(work.path / "run");
  REQUIRE(run(options).ok());
  std::string text = read_file(*options.output_dir / Checkpoint::kFileName);
  const std::string none = "\"newton_stalled_steps\":0,\"newton_stalled_residual_max\":0.0,";
  REQUIRE(text.find(none) != std::string::npos);  // the run had none: give it some, as a run that had
  text.replace(text.find(none), none.size(), "\"newton_stalled_steps\":2,\"newton_stalled_residual_max\":3.5e-12,");
  const Checkpoint current = parse_checkpoint(text, "version-7 checkpoint");
  CHECK(current.progress.newton_stalled_steps == 2);
  CHECK(current.progress.newton_stalled_residual_max == 3.5e-12);
  const fs::path copy = work.path / "resumed";
  fs::copy(*options.output_dir, copy);
  const RunOutcome resumed = resume_copy(current, copy, *options.output_dir);  // version 7: the work is known
  CHECK(resumed.statistics.newton_stalled_steps == 2);  // the checkpoint's; the steps after it stalled none
  CHECK(resumed.statistics.newton_stalled_residual_max == 3.5e-12);
  text.replace(text.find("\"version\":7,"), 12, "\"version\":2,");
  const Checkpoint version_2 = parse_checkpoint(text, "version-2 checkpoint");
  CHECK(version_2.progress.newton_stalled_steps == 0);  // a version-2 noether failed such steps
  CHECK(version_2.progress.newton_stalled_residual_max == 0.0);
}

TEST_CASE("--checkpoint-every needs an output directory") {
  RunOptions options = scenario_options({});
  options.output_dir.reset();
  CHECK_THROWS_WITH_AS(run(options), "--checkpoint-every writes DIR/checkpoint.json: add --out DIR", std::invalid_argument);
}

TEST_CASE("a staged file continues from a checkpoint's length: what follows is cut, a shorter file refused") {
  const TempDir work("checkpoint_staged");
  const OutputDirectory directory(work.path);
  std::uint64_t length = 0;
  {
    StagedFile file(directory, "rows.partial", "rows");
    file.append("header\nrow 1\n");
    file.sync();
    length = file.bytes_flushed();
    file.append("row 2, after the checkpoint\n");
    file.flush();
  }  // stopped: the file keeps its staging name
  const auto refusal = [&](std::uint64_t wanted) {
    try {
      StagedFile file(directory, "rows.partial", "rows", wanted);
    } catch (const OutputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal(1000) == "'" + (work.path / "rows.partial").string() +
                             "' holds 41 bytes, fewer than the 1000 to continue from");
  {
    StagedFile file(directory, "rows.partial", "rows", length);
    CHECK(file.bytes_flushed() == length);
    file.append("row 2\n");
    file.commit();
  }
  CHECK(read_file(work.path / "rows") == "header\nrow 1\nrow 2\n");
  // A symlink under the staging name is not followed: its target stays as it was.
  std::ofstream(work.path / "elsewhere") << "not ours\n";
  fs::create_symlink(work.path / "elsewhere", work.path / "rows.partial");
  CHECK(refusal(0).find("opening '" + (work.path / "rows.partial").string() + "' failed: ") == 0);
  CHECK(read_file(work.path / "elsewhere") == "not ours\n");
}

namespace {

/// The real system calls, raising the interrupt flag (as a SIGTERM's handler does) at the
/// `fsyncs`-th fsync, or at the first write after it: a stop at an exact point of the run.
class InterruptingFileCalls : public FileCalls {
 public:
  InterruptingFileCalls(std::atomic<int>& flag, int fsyncs, bool at_next_write)
      : flag_(flag), fsyncs_to_go_(fsyncs), at_next_write_(at_next_write) {}
  ssize_t write(int fd, const void* data, std::size_t size) const override {
    if (fsyncs_to_go_ == 0 && at_next_write_) flag_ = SIGTERM;
    return FileCalls::write(fd, data, size);
  }
  int fsync(int fd) const override {
    if (--fsyncs_to_go_ == 0 && !at_next_write_) flag_ = SIGTERM;
    return FileCalls::fsync(fd);
  }

 private:
  std::atomic<int>& flag_;
  mutable int fsyncs_to_go_;
  bool at_next_write_;
};

/// Runs options stopped by calls' flag, resumes it (read_checkpoint, as `noether resume`) and
/// checks the result against the run never stopped. Returns the step it was stopped after.
std::int64_t check_stop_and_resume(RunOptions options, const fs::path& work, int fsyncs, bool at_next_write) {
  options.output_dir = work / "reference";
  const RunOutcome reference = run(options);
  REQUIRE(reference.ok());
  std::atomic<int> flag{0};
  const InterruptingFileCalls calls(flag, fsyncs, at_next_write);
  options.output_dir = work / "stopped";
  options.interrupt = &flag;
  options.file_calls = &calls;
  const RunOutcome stopped = run(options);
  REQUIRE(stopped.ending.status == RunStatus::interrupted);
  const Checkpoint checkpoint = read_checkpoint(work / "stopped");
  RunOptions resumed = checkpoint.options;
  resumed.output_dir = work / "stopped";
  resumed.resume = &checkpoint;
  const RunOutcome result = run(resumed);
  CHECK(result.ok());
  const bool same_rows = read_file(work / "stopped" / "timeseries.csv") == read_file(work / "reference" / "timeseries.csv");
  CHECK(same_rows);
  CHECK(result.statistics.newton_iterations_total == reference.statistics.newton_iterations_total);
  CHECK(result.statistics.newton_factorizations_total == reference.statistics.newton_factorizations_total);
  CHECK(same_bits(result.statistics.energy_final, reference.statistics.energy_final));
  CHECK(same_bits(result.statistics.velocity_constraint_max_abs, reference.statistics.velocity_constraint_max_abs));
  return stopped.statistics.steps;
}

}  // namespace

TEST_CASE("a run interrupted right after a checkpoint or between two resumes to the bytes of the run never stopped") {
  RunOptions options = scenario_options({});  // its output directory: check_stop_and_resume's
  options.scenario = "chain2d";
  options.overrides = {{"n", 40.0}};
  options.configure().t_end = 1.2;
  options.output_every = 2;
  options.checkpoint_every = 25;
  SUBCASE("with the joints' reactions, which the resumed rows hold too") {
    options.write_reactions = true;
    const TempDir work("checkpoint_reactions");
    CHECK(check_stop_and_resume(options, work.path, 2 + 3 * 2, false) == 2 * options.checkpoint_every);
  }
  // fsyncs: 2 for the running summary, then 3 per checkpoint (the time series, the file, the directory).
  SUBCASE("right after the second checkpoint: at its directory's fsync") {
    const TempDir work("checkpoint_after");
    CHECK(check_stop_and_resume(options, work.path, 2 + 3 * 2, false) == 2 * options.checkpoint_every);
  }
  SUBCASE("between the third checkpoint and the fourth: at the first flush of the time series after the third") {
    // Rows of 8 KB every second step fill the 64 KiB buffer within 16 steps, before the fourth.
    const TempDir work("checkpoint_between");
    const std::int64_t step = check_stop_and_resume(options, work.path, 2 + 3 * 3, true);
    CHECK(step > 3 * options.checkpoint_every);
    CHECK(step < 4 * options.checkpoint_every);
  }
}

namespace {

/// text (a checkpoint) with the value at the JSON pointer `at` replaced by value.
std::string with(const std::string& text, const std::string& at, const nlohmann::ordered_json& value) {
  nlohmann::ordered_json checkpoint = nlohmann::ordered_json::parse(text);
  checkpoint[nlohmann::ordered_json::json_pointer(at)] = value;
  return checkpoint.dump();
}

/// What parse_checkpoint refuses text with, "" when it reads it.
std::string parse_refusal(const std::string& text) {
  try {
    parse_checkpoint(text, "checkpoint");
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "";
}

/// What read_checkpoint (`noether resume`) refuses dir with, "" when it reads it.
std::string resume_refusal(const fs::path& dir) {
  try {
    read_checkpoint(dir);
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "";
}

/// A copy of the completed run's directory `from`, as a run stopped after its last checkpoint
/// leaves it: the summary says interrupted, the rows after the checkpoint's are still there.
fs::path stopped_copy(const fs::path& from, const fs::path& to) {
  fs::copy(from, to, fs::copy_options::recursive);
  std::string summary = read_file(to / "summary.json");
  const std::string completed = "\"status\": \"completed\"";
  REQUIRE(summary.find(completed) != std::string::npos);
  summary.replace(summary.find(completed), completed.size(), "\"status\": \"interrupted\"");
  std::ofstream(to / "summary.json", std::ios::binary | std::ios::trunc) << summary;
  return to;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("a checkpoint whose state its run would not have saved is refused at its JSON path") {
  const TempDir work("checkpoint_state_in_run");
  const RunOptions options = scenario_options(work.path / "run");  // 37 steps of 0.01, a checkpoint every 10
  REQUIRE(run(options).ok());
  const std::string text = read_file(work.path / "run" / Checkpoint::kFileName);
  const Checkpoint written = parse_checkpoint(text, "checkpoint");
  REQUIRE(written.state.step == 30);
  const double t = written.state.t;
  CHECK(parse_refusal(with(text, "/options/t_end", 0.2))
            .find("/state/step: is 30, at or past the run's last step, 20 (t_end = 0.2, h = 0.01), after which it "
                  "writes no checkpoint: the file was edited or damaged") != std::string::npos);
  CHECK(parse_refusal(with(text, "/options/h", 0.001))
            .find("/state/t: is " + format_exact(t) + ", but step 30 of h = 0.001 ends at t = 0.03 (to within the "
                  "rounding of the additions that reach it, ") != std::string::npos);
  CHECK(parse_refusal(with(text, "/state/t", t + 5)).find("/state/t: is 5.3") != std::string::npos);
  // One ulp is within the rounding of 30 additions, but not the time the run's statistics reached.
  CHECK(parse_refusal(with(text, "/state/t", std::nextafter(t, 1.0))).find("/progress/t_reached: is " + format_exact(t)) !=
        std::string::npos);
  CHECK(parse_refusal(with(text, "/options/checkpoint_every", 7))
            .find("/state/step: is 30, not a multiple of checkpoint_every = 7") != std::string::npos);
  CHECK(parse_refusal(with(text, "/recorder/last_row_step", 27))
            .find("/recorder/last_row_step: is 27, but the last row written by step 30 every 3 steps is step 30's") !=
        std::string::npos);
  const std::string h = "\"h\":0.01,";
  REQUIRE(text.find(h) != std::string::npos);
  const std::string repeated = std::string(text).replace(text.find(h), h.size(), "\"h\":0.01,\"h\":0.02,");
  CHECK(parse_refusal(repeated) == "checkpoint: /options/h: the key 'h' is given twice in this object; give it once (a "
                                   "JSON reader keeps one of the two values)");
  CHECK(parse_refusal(text).empty());
}

TEST_CASE("an adaptive run's checkpoint at or past its t_end is refused") {
  const TempDir work("checkpoint_adaptive_end");
  RunOptions options = scenario_options(work.path / "run");
  options.scenario = "spring-pendulum";
  options.settings.reset();  // the spring pendulum's defaults, not the double pendulum's
  options.configure().stepper = "sem-vi";
  options.configure().t_end = 0.5;
  options.output_every = 1;
  options.checkpoint_every = 7;
  REQUIRE(run(options).ok());
  const std::string text = read_file(work.path / "run" / Checkpoint::kFileName);
  CHECK(parse_refusal(text).empty());
  CHECK(parse_refusal(with(text, "/options/t_end", 0.0)).find("/state/t: is ") != std::string::npos);
  CHECK(parse_refusal(with(text, "/options/t_end", 0.0)).find(", at or past t_end = 0, where the run ends") !=
        std::string::npos);
}

TEST_CASE("resume refuses a checkpoint whose settings are not those its directory's summary names") {
  const TempDir work("checkpoint_settings");
  const RunOptions options = scenario_options(work.path / "run");
  REQUIRE(run(options).ok());
  const fs::path dir = stopped_copy(work.path / "run", work.path / "stopped");
  const std::string text = read_file(dir / Checkpoint::kFileName);
  REQUIRE(resume_refusal(dir).empty());
  const std::string file = "'" + (dir / Checkpoint::kFileName).string() + "'";
  const std::string summary = "'" + (dir / "summary.json").string() + "'";
  const auto refusal_of = [&](const std::string& at, const nlohmann::ordered_json& value) {
    write_file(dir / Checkpoint::kFileName, with(text, at, value));
    return resume_refusal(dir);
  };
  CHECK(refusal_of("/options/solver", "umfpack") ==
        file + " gives solver = \"umfpack\", but " + summary + " says the outputs in '" + dir.string() +
            "' were computed with solver = \"auto\" (a resumed run continues with the settings that computed its rows): "
            "the file was edited or damaged; restore the checkpoint.json the run wrote, or start the run again");
  CHECK(refusal_of("/options/stepper", "em-ggl").find(" gives stepper = \"em-ggl\", but ") != std::string::npos);
  CHECK(refusal_of("/options/newton_tolerance", 1e-12).find(" gives newton_tolerance = 1e-12, but ") != std::string::npos);
  CHECK(refusal_of("/options/source/parameters/m1", 2.0).find(" gives parameters = {") != std::string::npos);
  // Without summary.json (a run whose final summary could not be written removes it) nothing is compared.
  write_file(dir / Checkpoint::kFileName, with(text, "/options/solver", "umfpack"));
  fs::remove(dir / "summary.json");
  CHECK(resume_refusal(dir).empty());
}

TEST_CASE("a new run removes an earlier run's checkpoint, and resume refuses a checkpoint of another run") {
  const TempDir work("checkpoint_stale");
  const fs::path dir = work.path / "run";
  RunOptions first = scenario_options(dir);
  const RunOutcome a = run(first);
  REQUIRE(a.ok());
  const std::string a_checkpoint = read_file(dir / Checkpoint::kFileName);
  CHECK(parse_checkpoint(a_checkpoint, "checkpoint").run_id == a.plan.run_id);
  CHECK(nlohmann::json::parse(read_file(dir / "summary.json"))["run_id"] == a.plan.run_id);
  // As if the first run had run over a scene's parts: the copy its checkpoints named.
  write_file(dir / SceneCopy::kFileName, "{}");
  // A later run into the same directory, without checkpoints, that fails at its first step.
  RunOptions second = first;
  second.checkpoint_every = 0;
  second.configure().newton.max_iterations = 1;  // too few for a step of h = 0.01 (its first iterate
  second.configure().max_refinement_depth = 0;     // has r = 1.2e-7), and no refinement
  const RunOutcome b = run(second);
  REQUIRE(b.ending.status == RunStatus::failed);
  CHECK(b.plan.run_id != a.plan.run_id);
  CHECK_FALSE(fs::exists(dir / Checkpoint::kFileName));
  CHECK_FALSE(fs::exists(dir / SceneCopy::kFileName));
  CHECK(resume_refusal(dir).starts_with("no checkpoint in "));
  // The earlier run's checkpoint put back (as a noether that did not remove it would leave it).
  write_file(dir / Checkpoint::kFileName, a_checkpoint);
  CHECK(resume_refusal(dir) == "'" + (dir / Checkpoint::kFileName).string() + "' belongs to another run (run_id " +
                                   a.plan.run_id + ") than the outputs in '" + dir.string() + "' ('" +
                                   (dir / "summary.json").string() + "' names run_id \"" + b.plan.run_id +
                                   "\"): a later run wrote into the directory, and resuming would cut its rows; the "
                                   "checkpoint's run cannot be continued: start it again");
}

TEST_CASE("resume refuses a time series that does not hold the rows the checkpoint counts") {
  const TempDir work("checkpoint_rows");
  REQUIRE(run(scenario_options(work.path / "run")).ok());
  const fs::path dir = stopped_copy(work.path / "run", work.path / "stopped");
  const std::string text = read_file(dir / Checkpoint::kFileName);
  const Checkpoint written = parse_checkpoint(text, "checkpoint");
  const std::string rows = read_file(dir / "timeseries.csv");
  const std::string series = "'" + (dir / "timeseries.csv").string() + "'";
  SUBCASE("fewer rows than the run wrote up to its last row (steps 0 to 30, every 3)") {
    std::size_t end = 0;  // after the header and 4 rows
    for (int line = 0; line < 5; ++line) end = rows.find('\n', end) + 1;
    write_file(dir / Checkpoint::kFileName, with(text, "/timeseries_length", end));
    CHECK(resume_refusal(dir) == series + " holds 4 rows in the " + std::to_string(end) +
                                     " bytes the checkpoint counts, but its run wrote 11 there (steps 0 to 30, every 3): "
                                     "the time series is not the one the checkpoint continues");
  }
  SUBCASE("a last row at another time than the state's") {
    const auto length = static_cast<std::size_t>(written.timeseries_length);
    const std::size_t start = rows.rfind('\n', length - 2) + 1;  // the row of step 30
    REQUIRE(rows.substr(start, 2) == "0.");
    std::string changed = rows;
    changed[start] = '1';  // 1.3...: another time, in as many bytes
    write_file(dir / "timeseries.csv", changed);
    const double row_t = std::stod(changed.substr(start, changed.find(',', start) - start));
    CHECK(resume_refusal(dir) == series + ": the row of step 30 is at t = " + format_exact(row_t) +
                                     ", but the checkpoint's state of that step is at t = " +
                                     format_exact(written.state.t) + ": the time series is not the one the checkpoint "
                                     "continues");
  }
}

TEST_CASE("a checkpoint.json that is a directory is refused naming it") {
  const TempDir work("checkpoint_directory");
  REQUIRE(run(scenario_options(work.path / "run")).ok());
  const fs::path dir = stopped_copy(work.path / "run", work.path / "stopped");
  fs::remove(dir / Checkpoint::kFileName);
  fs::create_directory(dir / Checkpoint::kFileName);
  CHECK_THROWS_WITH_AS(read_checkpoint(dir),
                       ("'" + (dir / Checkpoint::kFileName).string() +
                        "' is a directory, not a file: there is no checkpoint to resume from; start the run again")
                           .c_str(),
                       CheckpointError);
}

TEST_CASE("a scene's copy is named by its length and FNV-1a digest, which any changed byte changes") {
  // The published FNV-1a 64-bit test vectors (Fowler, Noll and Vo): "" and "a".
  CHECK(scene_copy_of("") == SceneCopy{0, "cbf29ce484222325"});
  CHECK(scene_copy_of("a") == SceneCopy{1, "af63dc4c8601ec8c"});
  const std::string text = "{\"bodies\": []}";
  std::string changed = text;
  changed[3] = 'B';
  CHECK(scene_copy_of(changed).bytes == scene_copy_of(text).bytes);
  CHECK(scene_copy_of(changed).digest != scene_copy_of(text).digest);
}
