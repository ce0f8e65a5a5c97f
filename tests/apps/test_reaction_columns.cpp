/// `--reactions on`: the reaction columns of timeseries.csv, named reaction:<joint>.<component>,
/// with the components each body has, present only when asked, and their values those of
/// joint_reactions at the row's state.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/cli_arguments.hpp>
#include <noether/apps/runner.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
using testing::read_file;
using testing::split;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

/// The header and rows of DIR/timeseries.csv after a run of `scenario` for `steps` steps of h.
std::vector<std::vector<std::string>> run_rows(const std::string& scenario, bool reactions, const fs::path& out,
                                               double h, int steps) {
  RunOptions options;
  options.scenario = scenario;
  options.output_dir = out;
  options.write_motion = false;
  options.write_reactions = reactions;
  options.threads = 1;
  options.configure().h = h;
  options.configure().t_end = h * steps;
  REQUIRE(run(options).ok());
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : split(read_file(out / "timeseries.csv"), '\n')) rows.push_back(split(line, ','));
  return rows;
}

std::vector<std::string> reaction_columns(const std::vector<std::string>& header) {
  std::vector<std::string> columns;
  for (const std::string& c : header)
    if (c.rfind("reaction:", 0) == 0) columns.push_back(c);
  return columns;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  FAIL("no column ", name);
  return 0;
}

}  // namespace

TEST_CASE("--reactions on adds reaction:<joint>.<component> per joint, the components its second body has") {
  TempDir dir("reaction_columns");
  // The top: a 3D body on a spherical joint: force and moment.
  const auto top = run_rows("top", true, dir.path / "top", 0.01, 3);
  CHECK(reaction_columns(top[0]) == std::vector<std::string>{"reaction:tip.fx", "reaction:tip.fy", "reaction:tip.fz",
                                                               "reaction:tip.mx", "reaction:tip.my", "reaction:tip.mz"});
  // The double pendulum: planar point masses on distance joints: the force in the plane alone.
  const auto pendulum = run_rows("double-pendulum", true, dir.path / "pendulum", 0.01, 3);
  CHECK(reaction_columns(pendulum[0]) ==
        std::vector<std::string>{"reaction:rod1.fx", "reaction:rod1.fy", "reaction:rod2.fx", "reaction:rod2.fy"});
  // Planar bars on planar revolute joints: fx, fy, mz.
  const auto fourbar = run_rows("double-fourbar", true, dir.path / "fourbar", 0.01, 3);
  const std::vector<std::string> planar = reaction_columns(fourbar[0]);
  REQUIRE(planar.size() % 3 == 0);
  for (std::size_t i = 0; i < planar.size(); i += 3) {
    const std::string joint = planar[i].substr(0, planar[i].size() - 3);
    CHECK(planar[i + 1] == joint + ".fy");
    CHECK(planar[i + 2] == joint + ".mz");
  }
  // Every row has every column; the initial row's reactions are zero (no step yet), the others finite.
  for (const auto* rows : {&top, &pendulum, &fourbar}) {
    const std::vector<std::string>& header = (*rows)[0];
    for (std::size_t r = 1; r < rows->size(); ++r) REQUIRE((*rows)[r].size() == header.size());
    for (const std::string& c : reaction_columns(header)) {
      CHECK(std::stod((*rows)[1][column(header, c)]) == 0.0);
      CHECK(std::isfinite(std::stod(rows->back()[column(header, c)])));
    }
  }
  // The top rests on its tip: the tip pushes it up (fz > 0; the sign of the reaction on the body).
  CHECK(std::stod(top.back()[column(top[0], "reaction:tip.fz")]) > 0.0);
}

TEST_CASE("without --reactions the time series has no reaction column and the same bytes") {
  TempDir dir("reaction_columns_off");
  const auto off = run_rows("double-pendulum", false, dir.path / "off", 0.01, 3);
  CHECK(reaction_columns(off[0]).empty());
  const auto on = run_rows("double-pendulum", true, dir.path / "on", 0.01, 3);
  // The columns before the reactions are the same values.
  for (std::size_t r = 0; r < off.size(); ++r)
    CHECK(std::vector<std::string>(on[r].begin(), on[r].begin() + static_cast<long>(off[r].size())) == off[r]);
  CHECK(read_file(dir.path / "off" / "final_state.json") == read_file(dir.path / "on" / "final_state.json"));
}

TEST_CASE("a scene with output.reactions on: a bar hanging at rest, its pivot's reaction m g up and no moment") {
  TempDir dir("reaction_columns_scene");
  RunArguments a;
  a.scenario = NOETHER_SOURCE_DIR "/tests/apps/scenes/hanging_pendulum.json";
  a.settings = {{"output_directory", dir.path.string()}, {"threads", "1"}};
  const RunOptions options = to_run_options(a);
  REQUIRE(options.write_reactions);
  REQUIRE(run(options).ok());
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : split(read_file(dir.path / "timeseries.csv"), '\n')) rows.push_back(split(line, ','));
  REQUIRE(reaction_columns(rows[0]) ==
          std::vector<std::string>{"reaction:pivot.fx", "reaction:pivot.fy", "reaction:pivot.mz"});
  const double weight = 2.0 * 9.81;  // the scene's mass and gravity
  const auto value = [&](const std::string& c) { return std::stod(rows.back()[column(rows[0], c)]); };
  MESSAGE("pivot reaction (", value("reaction:pivot.fx"), ", ", value("reaction:pivot.fy"), "), moment ",
          value("reaction:pivot.mz"));
  CHECK(std::abs(value("reaction:pivot.fx")) <= 1e-9 * weight);
  CHECK(std::abs(value("reaction:pivot.fy") - weight) <= 1e-9 * weight);
  CHECK(std::abs(value("reaction:pivot.mz")) <= 1e-9 * weight);
}

TEST_CASE("--reactions on is refused with the steppers that keep half of each step's constraint impulse") {
  for (const char* stepper : {"evi", "midpoint-vi", "sem-vi"}) {
    CAPTURE(stepper);
    RunOptions options;
    options.scenario = "double-pendulum";
    options.configure().stepper = stepper;
    options.write_reactions = true;
    try {
      run(options);
      FAIL("--reactions on with ", stepper, " was not refused");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("--reactions on: stepper " + std::string(stepper)) != std::string::npos);
    }
    options.write_reactions = false;
    options.configure().t_end = 0.01;
    CHECK(run(options).ok());
  }
}
