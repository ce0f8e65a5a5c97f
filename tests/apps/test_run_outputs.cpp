/// A run's output directory never claims more than happened: summary.json says
/// "running" from the start and completed, failed or interrupted at the end; the time series is
/// timeseries.csv.partial while the run goes on; a full disk, a refusal or a signal leaves both
/// files consistent; symlinks are never written through.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/interrupt_signals.hpp>
#include <noether/apps/runner.hpp>
#include "support/failing_file_calls.hpp"
#include "support/run_output_files.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;  // TempDir, read_file, entry_names, FailingFileCalls, options_for
namespace fs = std::filesystem;

namespace {

/// What a completed run with outputs leaves in its directory.
const std::vector<std::string> kAllFiles{"final_state.json", "motion.pvd", "summary.json", "timeseries.csv", "vtk"};

/// How often `what` occurs in text.
std::int64_t count_of(const std::string& text, const std::string& what) {
  std::int64_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

nlohmann::json summary_in(const fs::path& dir) { return nlohmann::json::parse(read_file(dir / "summary.json")); }

std::vector<std::string> lines_of(const fs::path& file) {
  std::vector<std::string> lines;
  std::istringstream in(read_file(file));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The file's rows are whole: it ends with a newline and each line has the header's cell count.
void check_whole_rows(const fs::path& file) {
  const std::string text = read_file(file);
  REQUIRE(!text.empty());
  CHECK(text.back() == '\n');
  const std::vector<std::string> lines = lines_of(file);
  const auto cells = std::count(lines.front().begin(), lines.front().end(), ',');
  for (const std::string& line : lines) CHECK(std::count(line.begin(), line.end(), ',') == cells);
}

/// Waits (at most a minute) until the run writing into dir has its partial time series, then
/// returns what summary.json says at that moment and what the directory holds.
std::pair<std::string, std::vector<std::string>> wait_for_running(const fs::path& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!fs::exists(dir / "timeseries.csv.partial") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return {read_file(dir / "summary.json"), entry_names(dir)};
}

/// A run of chain2d long enough (10^6 steps) to be interrupted while it goes on.
RunOptions long_run(const fs::path& dir) {
  RunOptions options = options_for("chain2d", dir);
  options.overrides = {{"n", 20.0}};
  options.configure().t_end = 1e4;
  options.configure().max_steps = 1'000'000;
  return options;
}

/// Checks dir after an interruption by `signal` of the long run: the summary says so, and
/// timeseries.csv holds steps 0 to result.statistics.steps of chain2d, whole.
void check_interrupted(const fs::path& dir, const RunOutcome& r, int signal) {
  CHECK(r.ending.status == RunStatus::interrupted);
  CHECK_FALSE(r.ok());
  CHECK(r.ending.interrupt_signal == signal);
  CHECK(r.ending.error.starts_with("interrupted by " + signal_name(signal) + " after step " + std::to_string(r.statistics.steps)));
  const nlohmann::json j = summary_in(dir);
  CHECK(j["status"] == "interrupted");
  CHECK(j["interrupted_by"] == signal_name(signal));
  CHECK(j["scenario"] == "chain2d");
  CHECK(j["steps"] == r.statistics.steps);
  CHECK(j["timeseries"] == "timeseries.csv");
  CHECK(j["ok"] == false);
  CHECK(j["t_reached"].get<double>() == r.statistics.t_reached);
  CHECK(entry_names(dir) == kAllFiles);
  const std::vector<std::string> rows = lines_of(dir / "timeseries.csv");
  CHECK(count_of(read_file(dir / "motion.pvd"), "<DataSet ") == r.statistics.steps + 1);  // a drawing per row
  const nlohmann::json final_state = nlohmann::json::parse(read_file(dir / "final_state.json"));
  CHECK(final_state["step"] == r.statistics.steps);
  CHECK(final_state["t"].get<double>() == r.statistics.t_reached);
  CHECK(rows.size() == static_cast<std::size_t>(r.statistics.steps) + 2);  // header, steps 0 .. steps
  CHECK(rows.front().starts_with("t,q:bar0."));
  check_whole_rows(dir / "timeseries.csv");
}

}  // namespace

TEST_CASE("a run marks itself running from the start, and an interruption leaves its own files, whole") {
  // An interrupted run must not leave the previous run's summary ("double-fourbar", ok) beside
  // its own rows: the previous run's files are replaced from the start.
  TempDir dir("outputs_running");
  RunOptions previous = options_for("double-fourbar", dir.path);
  previous.configure().t_end = 0.1;
  REQUIRE(run(previous).ok());
  REQUIRE(summary_in(dir.path)["status"] == "completed");

  std::atomic<int> interrupt{0};
  RunOptions options = long_run(dir.path);
  options.interrupt = &interrupt;
  std::pair<std::string, std::vector<std::string>> during;
  std::thread watcher([&] {
    during = wait_for_running(dir.path);
    interrupt = SIGINT;
  });
  const RunOutcome r = run(options);
  watcher.join();

  const nlohmann::json running = nlohmann::json::parse(during.first);
  CHECK(running["status"] == "running");
  CHECK(running["scenario"] == "chain2d");
  CHECK(running["timeseries"] == "timeseries.csv.partial");
  CHECK(running["ok"] == false);
  CHECK(running["energy_final"].is_null());
  // vtk/ is created just after timeseries.csv.partial: the watcher may see it or not.
  std::erase(during.second, "vtk");
  CHECK(during.second == std::vector<std::string>{"summary.json", "timeseries.csv.partial"});
  check_interrupted(dir.path, r, SIGINT);
  CHECK(r.statistics.steps < 1'000'000);
}

TEST_CASE("SIGTERM, caught by InterruptSignals, ends the run after its step with the files closed") {
  TempDir dir("outputs_sigterm");
  const InterruptSignals signals;
  RunOptions options = long_run(dir.path);
  options.interrupt = &signals.requested();
  std::thread watcher([&] {
    wait_for_running(dir.path);
    kill(getpid(), SIGTERM);  // to the process, as `kill PID` sends it
  });
  const RunOutcome r = run(options);
  watcher.join();
  check_interrupted(dir.path, r, SIGTERM);
}

TEST_CASE("SIGHUP (the terminal closed) ends the run as SIGTERM does: after its step, with the files closed") {
  TempDir dir("outputs_sighup");
  const InterruptSignals signals;
  RunOptions options = long_run(dir.path);
  options.interrupt = &signals.requested();
  std::thread watcher([&] {
    wait_for_running(dir.path);
    kill(getpid(), SIGHUP);
  });
  const RunOutcome r = run(options);
  watcher.join();
  check_interrupted(dir.path, r, SIGHUP);
  CHECK(signal_name(SIGHUP) == "SIGHUP");
}

TEST_CASE("a signal ignored when InterruptSignals is made (a background job's SIGINT) stays ignored") {
  struct sigaction ignore {}, previous{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &previous);
  {
    const InterruptSignals signals;
    raise(SIGINT);
    CHECK(signals.requested().load() == 0);
  }
  struct sigaction now {};
  sigaction(SIGINT, &previous, &now);
  CHECK(reinterpret_cast<void*>(now.sa_handler) == reinterpret_cast<void*>(SIG_IGN));  // restored as found
}

TEST_CASE("an interruption before the first step leaves the initial state") {
  TempDir dir("outputs_interrupt_first");
  std::atomic<int> interrupt{SIGTERM};
  RunOptions options = options_for("double-pendulum", dir.path);
  options.output_every = 10;
  options.interrupt = &interrupt;
  const RunOutcome r = run(options);
  CHECK(r.ending.status == RunStatus::interrupted);
  CHECK(r.statistics.steps == 0);
  CHECK(r.statistics.t_reached == 0.0);
  CHECK(lines_of(dir.path / "timeseries.csv").size() == 2);
  CHECK(summary_in(dir.path)["status"] == "interrupted");
}

TEST_CASE("a disk that fills up while the final summary is written: an error with the reason, no summary that lies") {
  // Never exit 0 with an empty summary.json. The running summary is written (one write), then
  // the disk is full (ENOSPC) for the final one; the running summary is removed, since the run
  // no longer runs, and the result carries the error.
  TempDir dir("outputs_summary_full");
  FailingFileCalls calls;
  calls.target = "summary.json";
  calls.writes = 1;
  RunOptions options = options_for("double-pendulum", dir.path);
  options.file_calls = &calls;
  const RunOutcome r = run(options);
  CHECK(calls.injected);
  CHECK(r.ending.status == RunStatus::failed);
  CHECK(r.ending.failure.cause == FailureCause::output);
  CHECK_FALSE(r.ok());
  CHECK(r.statistics.steps == 100);  // the steps were all taken; their summary could not be written
  const fs::path summary = dir.path / "summary.json";
  CHECK(r.ending.error == "writing '" + summary.string() + "' failed: No space left on device; removed " + summary.string() +
                       ", which said the run was running");
  CHECK(entry_names(dir.path) == std::vector<std::string>{"final_state.json", "motion.pvd", "timeseries.csv", "vtk"});
  CHECK(lines_of(dir.path / "timeseries.csv").size() == 102);
}

TEST_CASE("a disk that fills up while the time series is written: whole rows stay, the summary says why") {
  // The error names errno's reason, the rows stay whole and the summary is written. The disk fills
  // after 100 kB of rows (the run writes about 500 kB); the run stops at the failed write.
  TempDir dir("outputs_rows_full");
  FailingFileCalls calls;
  calls.target = "timeseries.csv.partial";
  calls.budget = 100'000;
  RunOptions options = options_for("double-pendulum", dir.path);
  options.configure().t_end = 20.0;
  options.file_calls = &calls;
  const RunOutcome r = run(options);
  CHECK(calls.injected);
  CHECK(r.ending.status == RunStatus::failed);
  CHECK(r.ending.failure.cause == FailureCause::output);
  CHECK(r.ending.error == "writing '" + (dir.path / "timeseries.csv.partial").string() + "' failed: No space left on device");
  CHECK(r.ending.failure.step == r.statistics.steps + 1);
  CHECK(r.statistics.steps < 2000);
  const nlohmann::json j = summary_in(dir.path);
  CHECK(j["status"] == "failed");
  CHECK(j["error"] == r.ending.error);
  CHECK(j["failure"]["cause"] == "output");
  CHECK(j["failure"]["step"] == r.ending.failure.step);
  CHECK(j["timeseries"] == "timeseries.csv");
  CHECK(entry_names(dir.path) == kAllFiles);
  check_whole_rows(dir.path / "timeseries.csv");
  CHECK(fs::file_size(dir.path / "timeseries.csv") <= 100'000);
  CHECK(lines_of(dir.path / "timeseries.csv").size() <= static_cast<std::size_t>(r.statistics.steps) + 1);
}

TEST_CASE("a running summary that cannot be written stops the run before it starts, the old files untouched") {
  TempDir dir("outputs_start_full");
  REQUIRE(run(options_for("double-pendulum", dir.path)).ok());
  const std::string old_summary = read_file(dir.path / "summary.json");
  const std::string old_rows = read_file(dir.path / "timeseries.csv");
  FailingFileCalls calls;
  calls.target = "summary.json";
  calls.writes = 0;
  RunOptions options = options_for("spring-pendulum", dir.path);
  options.file_calls = &calls;
  CHECK_THROWS_WITH_AS(run(options), doctest::Contains("summary.json' failed: No space left on device"), OutputError);
  CHECK(read_file(dir.path / "summary.json") == old_summary);
  CHECK(read_file(dir.path / "timeseries.csv") == old_rows);
  CHECK(entry_names(dir.path) == kAllFiles);
}

TEST_CASE("a run replaces symlinks in its output directory and never writes through them") {
  // Symlinks in the output directory are replaced, never written through.
  TempDir dir("outputs_symlinks");
  fs::create_directories(dir.path / "out");
  std::ofstream(dir.path / "victim") << "precious\n";
  for (const char* name : {"summary.json", "summary.json.tmp", "timeseries.csv", "timeseries.csv.partial"})
    fs::create_symlink(dir.path / "victim", dir.path / "out" / name);
  RunOptions options = options_for("double-pendulum", dir.path / "out");
  options.configure().t_end = 0.02;
  REQUIRE(run(options).ok());
  CHECK(read_file(dir.path / "victim") == "precious\n");
  CHECK(entry_names(dir.path / "out") == kAllFiles);
  for (const char* name : {"summary.json", "timeseries.csv"}) CHECK(fs::is_regular_file(fs::symlink_status(dir.path / "out" / name)));
  CHECK(summary_in(dir.path / "out")["status"] == "completed");
}

TEST_CASE("a non-finite initial state is the stepper's refusal: status failed, both files written") {
  // A non-finite initial state is the stepper's refusal, not a usage error without a summary.
  TempDir dir("outputs_nonfinite");
  RunOptions options = options_for("top", dir.path);
  options.overrides = {{"density", 1e140}, {"omega_p", 1e200}};  // p = M v overflows (M and v do not)
  const RunOutcome r = run(options);
  CHECK(r.ending.status == RunStatus::failed);
  CHECK(r.ending.failure.cause == FailureCause::refused);
  CHECK(r.ending.error == "livens-em: state.p is not finite at top.phi.x (inf)");
  CHECK(r.ending.failure.step == 1);
  CHECK(r.ending.failure.t == 0.0);
  const nlohmann::json j = summary_in(dir.path);
  CHECK(j["status"] == "failed");
  CHECK(j["failure"]["cause"] == "refused");
  CHECK(lines_of(dir.path / "timeseries.csv").size() == 2);  // header and the initial state
}

TEST_CASE("a stepper that refuses the system before step 0 fails at step 0, with the header as the time series") {
  TempDir dir("outputs_refusal");
  RunOptions options = options_for("rod-chain3d", dir.path);
  options.configure().stepper = "ggl-vi";  // rod-chain3d's mass matrix is singular
  const RunOutcome r = run(options);
  CHECK(r.ending.failure.cause == FailureCause::refused);
  CHECK(r.ending.failure.step == 0);
  CHECK(r.statistics.steps == 0);
  const nlohmann::json j = summary_in(dir.path);
  CHECK(j["failure"]["step"] == 0);
  CHECK(j["t_reached"].is_null());
  CHECK(lines_of(dir.path / "timeseries.csv").size() == 1);
}

TEST_CASE("a scheme parameter the stepper refuses is a usage error, found before anything is written") {
  TempDir dir("outputs_usage");
  RunOptions options = options_for("double-pendulum", dir.path);
  options.configure().stepper = "evi";
  options.configure().scheme_parameters = {{"S", 2.5}};
  CHECK_THROWS_AS(run(options), std::invalid_argument);
  CHECK_FALSE(fs::exists(dir.path));
}
