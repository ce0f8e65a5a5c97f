/// The VTK time series of a run: what it lists after a failure, a previous run's files,
/// --vtk off, the subdirectory that is never reached through a symlink. The files themselves are
/// read back by VTK in tests/apps/check_vtk_output.py.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>
#include <noether/apps/vtk_series.hpp>
#include "support/failing_file_calls.hpp"
#include "support/run_output_files.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

/// The files motion.pvd lists, in order.
std::vector<std::string> listed_files(const fs::path& dir) { return attribute_values(read_file(dir / "motion.pvd"), "file"); }

}  // namespace

TEST_CASE("a run draws the rows' states into vtk/ and lists them in motion.pvd, replacing a previous run's") {
  TempDir dir("vtk_series");
  RunOptions options = options_for("double-pendulum", dir.path);
  options.configure().t_end = 0.2;
  options.output_every = 5;
  REQUIRE(run(options).ok());
  CHECK(entry_names(dir.path / "vtk").size() == 5);
  options.configure().t_end = 0.1;  // a shorter run into the same directory: steps 0, 5, 10
  REQUIRE(run(options).ok());
  CHECK(entry_names(dir.path / "vtk") ==
        std::vector<std::string>{"step_00000000.vtp", "step_00000005.vtp", "step_00000010.vtp"});
  CHECK(listed_files(dir.path) ==
        std::vector<std::string>{"vtk/step_00000000.vtp", "vtk/step_00000005.vtp", "vtk/step_00000010.vtp"});
  CHECK(nlohmann::json::parse(read_file(dir.path / "summary.json"))["motion"] == "motion.pvd");
}

TEST_CASE("--vtk off writes no drawings, and a previous run's motion.pvd does not stay beside the summary") {
  TempDir dir("vtk_off");
  RunOptions options = options_for("double-pendulum", dir.path);
  options.configure().t_end = 0.1;
  REQUIRE(run(options).ok());
  options.write_motion = false;
  REQUIRE(run(options).ok());
  CHECK(entry_names(dir.path) == std::vector<std::string>{"final_state.json", "summary.json", "timeseries.csv", "vtk"});
  CHECK(nlohmann::json::parse(read_file(dir.path / "summary.json"))["motion"].is_null());
}

TEST_CASE("a drawing that cannot be written fails the run, and motion.pvd lists the drawings written before it") {
  TempDir dir("vtk_full");
  FailingFileCalls calls;
  calls.target = "step_00000003.vtp";
  calls.writes = 0;
  RunOptions options = options_for("double-pendulum", dir.path);
  options.configure().t_end = 0.1;
  options.file_calls = &calls;
  const RunOutcome r = run(options);
  CHECK(calls.injected);
  CHECK(r.ending.failure.cause == FailureCause::output);
  CHECK(r.ending.error == "writing '" + (dir.path / "vtk" / "step_00000003.vtp").string() + "' failed: No space left on device");
  CHECK(r.statistics.steps == 2);
  CHECK(listed_files(dir.path) ==
        std::vector<std::string>{"vtk/step_00000000.vtp", "vtk/step_00000001.vtp", "vtk/step_00000002.vtp"});
  CHECK(entry_names(dir.path / "vtk").size() == 3);  // no temporary file left
  CHECK(nlohmann::json::parse(read_file(dir.path / "final_state.json"))["step"] == 2);
  CHECK(read_file(dir.path / "timeseries.csv").find("\n0.029999999999999999,") == std::string::npos);  // no row of step 3
}

TEST_CASE("the vtk subdirectory is never reached through a symlink or a file of its name") {
  TempDir dir("vtk_subdirectory");
  fs::create_directories(dir.path / "elsewhere");
  std::ofstream(dir.path / "elsewhere" / "step_00000000.vtp") << "precious\n";
  fs::create_directories(dir.path / "out");
  fs::create_directory_symlink(dir.path / "elsewhere", dir.path / "out" / "vtk");
  {
    const OutputDirectory out(dir.path / "out");
    const VtkSeries series(out, VtkDrawing({}, Model{std::make_shared<System>(), {}, {}}));
  }
  CHECK(fs::is_directory(fs::symlink_status(dir.path / "out" / "vtk")));
  CHECK(read_file(dir.path / "elsewhere" / "step_00000000.vtp") == "precious\n");
  fs::remove(dir.path / "out" / "vtk");
  std::ofstream(dir.path / "out" / "vtk") << "a file\n";
  const OutputDirectory out(dir.path / "out");
  const OutputDirectory vtk(out, "vtk");
  CHECK(fs::is_directory(fs::symlink_status(dir.path / "out" / "vtk")));
}
