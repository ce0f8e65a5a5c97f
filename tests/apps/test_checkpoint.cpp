/// Checkpoints (apps/checkpoint.hpp): the file reads back bitwise, and a run resumed from one, in
/// process, continues to the bytes of the run never stopped, for a scenario and a scene file.
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
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/scene_file.hpp>
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

/// Resumes the run in `copy` (a copy of a completed run's directory) from `checkpoint`; checks that
/// it completes with the rows of the run never stopped, whose directory is `reference`.
RunOutcome resume_copy(const Checkpoint& checkpoint, const fs::path& copy, const fs::path& reference) {
  RunOptions resumed = checkpoint.options;
  resumed.output_dir = copy;
  resumed.resume = &checkpoint;
  const RunOutcome result = run(resumed);
  CHECK(result.ok());
  CHECK(read_file(copy / "timeseries.csv") == read_file(reference / "timeseries.csv"));
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
  CHECK(same_bits(result.statistics.constraint_max_abs, reference.statistics.constraint_max_abs));
}

}  // namespace

TEST_CASE("a checkpoint reads back every double bitwise") {
  std::mt19937_64 bits(20);
  RunPlan plan;
  plan.source = ScenarioSource{"double-pendulum", {{"m1", 0.1}, {"l1", 1.3}}};
  plan.configuration.h = 0.1;
  plan.configuration.t_end = 1.0;
  RunOptions options;
  options.checkpoint_every = 7;
  Checkpoint written;
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
  written.progress.newton_evaluations = RunStatistics::NewtonEvaluations{1234, 567};
  written.progress.energy_initial = not_computed;
  written.progress.condition_estimate_max = std::numeric_limits<double>::infinity();
  written.recorder.invariants_initial = {awkward_values(3, bits)};
  written.recorder.step_size_last = -std::numeric_limits<double>::infinity();

  const Checkpoint read = parse_checkpoint(checkpoint_json(written), "test");
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
  CHECK(read.options.checkpoint_every == 7);
  CHECK(read.options.settings->h == 0.1);
}

TEST_CASE("a run resumed in process from its checkpoint writes the bytes of the run never stopped") {
  SUBCASE("a scenario") {
    const TempDir work("checkpoint_scenario");
    check_resume_in_process(scenario_options(work.path / "run"), work.path);
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
  // Version 1 had no evaluation counts: version 3's file with its version set back to 1 is one.
  std::string text = read_file(copy / Checkpoint::kFileName);
  const std::string version_3 = "\"version\":3,";
  REQUIRE(text.find(version_3) != std::string::npos);
  text.replace(text.find(version_3), version_3.size(), "\"version\":1,");
  const Checkpoint checkpoint = parse_checkpoint(text, "version-1 checkpoint");
  CHECK(!checkpoint.progress.newton_evaluations);
  const RunOutcome result = resume_copy(checkpoint, copy, *options.output_dir);
  CHECK(result.statistics.newton_iterations_total == reference.statistics.newton_iterations_total);
  CHECK(!result.statistics.newton_evaluations);  // the evaluations before the checkpoint are unknown
  const auto summary = nlohmann::json::parse(read_file(copy / "summary.json"));
  CHECK(summary.at("newton_evaluations_total").is_null());
  CHECK(summary.at("newton_matrix_evaluations_total").is_null());

  const std::string version_4 = text.replace(text.find("\"version\":1,"), 12, "\"version\":4,");
  CHECK_THROWS_WITH_AS(parse_checkpoint(version_4, "from a later noether"),
                       doctest::Contains("/version: is 4; this noether reads versions 1 to 3"), CheckpointError);
}

TEST_CASE("a checkpoint keeps the count and residual of stalled solves, which versions 1 and 2 read as none") {
  const TempDir work("checkpoint_stalled");
  const RunOptions options = scenario_options(work.path / "run");
  REQUIRE(run(options).ok());
  std::string text = read_file(*options.output_dir / Checkpoint::kFileName);
  const std::string none = "\"newton_stalled_steps\":0,\"newton_stalled_residual_max\":0.0,";
  REQUIRE(text.find(none) != std::string::npos);  // the run had none: give it some, as a run that had
  text.replace(text.find(none), none.size(), "\"newton_stalled_steps\":2,\"newton_stalled_residual_max\":3.5e-12,");
  const Checkpoint version_3 = parse_checkpoint(text, "version-3 checkpoint");
  CHECK(version_3.progress.newton_stalled_steps == 2);
  CHECK(version_3.progress.newton_stalled_residual_max == 3.5e-12);
  const fs::path copy = work.path / "resumed";
  fs::copy(*options.output_dir, copy);
  const RunOutcome resumed = resume_copy(version_3, copy, *options.output_dir);
  CHECK(resumed.statistics.newton_stalled_steps == 2);  // the checkpoint's; the steps after it stalled none
  CHECK(resumed.statistics.newton_stalled_residual_max == 3.5e-12);
  text.replace(text.find("\"version\":3,"), 12, "\"version\":2,");
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
