/// final_state.json: the last good state of a run, named by its labels, read back to
/// the bits of the row that closes timeseries.csv, for completed and failed runs; and the
/// summary's wall-clock split into setup, stepping and closing.
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/final_state.hpp>
#include <noether/apps/runner.hpp>
#include "support/run_output_files.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

/// The cells of each line of a CSV file, the header first.
std::vector<std::vector<std::string>> cells_of(const fs::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_file(file));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string>& row = rows.emplace_back();
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(cell);
  }
  return rows;
}

/// final_state.json in dir holds the state of the last row of timeseries.csv, bit for bit (both
/// written with 17 significant digits), the run's steps and t_reached, and a multiplier per
/// constraint row.
void check_final_state_closes_the_rows(const fs::path& dir, const RunOutcome& r) {
  const nlohmann::json state = nlohmann::json::parse(read_file(dir / "final_state.json"));
  const std::vector<std::vector<std::string>> rows = cells_of(dir / "timeseries.csv");
  const std::vector<std::string>& header = rows.front();
  const std::vector<std::string>& last = rows.back();
  CHECK(state["step"] == r.statistics.steps);
  CHECK(state["t"].get<double>() == r.statistics.t_reached);
  CHECK(std::strtod(last.at(0).c_str(), nullptr) == r.statistics.t_reached);
  std::size_t coordinates = 0, multipliers = 0;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c].starts_with("q:")) {
      ++coordinates;
      CHECK(state["q"].at(header[c].substr(2)).get<double>() == std::strtod(last.at(c).c_str(), nullptr));
    }
    if (const std::size_t dot = header[c].rfind('.'); header[c].ends_with(".x") && state["probes"].contains(header[c].substr(0, dot)))
      CHECK(state["probes"][header[c].substr(0, dot)][0].get<double>() == std::strtod(last.at(c).c_str(), nullptr));
    if (header[c].starts_with("g:")) {
      ++multipliers;
      CHECK(state["lambda"].contains(header[c].substr(2)));
    }
  }
  CHECK(coordinates > 0);
  CHECK(state["probes"].size() > 0);
  CHECK(state["q"].size() == coordinates);
  CHECK(state["v"].size() == coordinates);
  CHECK(state["p"].size() == coordinates);
  CHECK(state["lambda"].size() == multipliers);
}

/// setup + stepping + closing = wall, each part >= 0, in the result and in summary.json.
void check_times_add_up(const RunOutcome& r, const nlohmann::json& summary) {
  const RunTimes& t = r.times;
  for (const double part : {t.setup_seconds, t.stepping_seconds, t.closing_seconds}) CHECK(part >= 0.0);
  CHECK(t.setup_seconds + t.stepping_seconds + t.closing_seconds == doctest::Approx(t.wall_seconds).epsilon(1e-12));
  if (summary.is_null()) return;
  const std::vector<std::pair<const char*, double>> fields{{"setup_seconds", t.setup_seconds},
                                                           {"stepping_seconds", t.stepping_seconds},
                                                           {"closing_seconds", t.closing_seconds},
                                                           {"wall_seconds", t.wall_seconds}};
  for (const auto& [key, value] : fields) CHECK(summary[key].get<double>() == value);
}

}  // namespace

TEST_CASE("final_state_json writes each label with its value in order, null where a vector has no entry") {
  System system;
  system.add_block("ball", std::vector<std::string>{"x", "y"});
  system.add_block("spin", std::vector<std::string>{"a"});
  State state;
  state.step = 7;
  state.t = 0.25;
  state.q = Vector::LinSpaced(3, 1.0, 3.0);
  state.v = Vector::Constant(3, -0.5);
  state.p = Vector::Zero(2);  // one entry short: "spin.a" gets null
  state.discrete_energy = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Probe> probes{{"tip", 2, [](const State& s) { return Vector(s.q.head(2)); }}};
  CHECK(final_state_json(system, state, probes) ==
        "{\n  \"step\": 7,\n  \"t\": 0.25,\n"
        "  \"q\": {\n    \"ball.x\": 1,\n    \"ball.y\": 2,\n    \"spin.a\": 3\n  },\n"
        "  \"v\": {\n    \"ball.x\": -0.5,\n    \"ball.y\": -0.5,\n    \"spin.a\": -0.5\n  },\n"
        "  \"p\": {\n    \"ball.x\": 0,\n    \"ball.y\": 0,\n    \"spin.a\": null\n  },\n"
        "  \"lambda\": {},\n  \"discrete_energy\": null,\n"
        "  \"probes\": {\n    \"tip\": [1, 2]\n  }\n}\n");
}

TEST_CASE("final_state_json writes a label with a backslash or a byte above ASCII as JSON reads it back") {
  // (A name holds no double quote or control character: System refuses them.)
  System system;
  system.add_block("back\\slash", std::vector<std::string>{"x"});
  system.add_block("caf\xc3\xa9", std::vector<std::string>{"x"});
  system.add_block("plain", std::vector<std::string>{"x"});
  State state;
  state.q = state.v = state.p = Vector::LinSpaced(3, 1.0, 3.0);
  const nlohmann::json read = nlohmann::json::parse(final_state_json(system, state, {}));
  std::vector<std::string> labels;
  for (const auto& [label, value] : read.at("q").items()) labels.push_back(label);
  CHECK(labels == std::vector<std::string>{"back\\slash.x", "caf\xc3\xa9.x", "plain.x"});
  CHECK(read.at("q").at("caf\xc3\xa9.x") == 2.0);
}

TEST_CASE("a completed run's final_state.json is the state of its last row, with v, p and the multipliers") {
  TempDir dir("final_state_completed");
  RunOptions options = options_for("double-fourbar", dir.path);
  options.configure().t_end = 0.5;
  options.output_every = 7;  // step 500 is no multiple of 7: the final state has no row of the grid
  const RunOutcome r = run(options);
  REQUIRE(r.ok());
  CHECK(r.statistics.steps == 500);
  const nlohmann::json state = nlohmann::json::parse(read_file(dir.path / "final_state.json"));
  CHECK(state["step"] == 500);
  CHECK(state["q"].contains("B1.phi.x"));
  CHECK(state["discrete_energy"].is_null());  // livens-em has none
  CHECK(state["probes"]["B0"].size() == 2);
  CHECK(nlohmann::json::parse(read_file(dir.path / "summary.json"))["final_state"] == "final_state.json");
  // The rows are steps 0, 7, ..., 497: the final state's row is not among them.
  CHECK(std::strtod(cells_of(dir.path / "timeseries.csv").back().at(0).c_str(), nullptr) < r.statistics.t_reached);
}

TEST_CASE("a failed run's final_state.json is its last good state, the one that closes timeseries.csv") {
  // ggl-vi without refinement cannot take step 4502 of the double four-bar (its step equations
  // have no solution there); rows every 1000 steps, then the last good state, step 4501.
  TempDir dir("final_state_failed");
  RunOptions options = options_for("double-fourbar", dir.path);
  options.configure().stepper = "ggl-vi";
  options.configure().h = 2e-3;
  options.configure().max_refinement_depth = 0;
  options.output_every = 1000;
  const RunOutcome r = run(options);
  REQUIRE(r.ending.status == RunStatus::failed);
  CHECK(r.ending.failure.cause == FailureCause::newton);
  CHECK(r.statistics.steps == 4501);
  check_final_state_closes_the_rows(dir.path, r);
  check_times_add_up(r, nlohmann::json::parse(read_file(dir.path / "summary.json")));
}

TEST_CASE("a run that fails at its initial state writes no final state, and says so") {
  TempDir dir("final_state_refused");
  RunOptions options = options_for("rod-chain3d", dir.path);
  options.configure().stepper = "ggl-vi";  // refuses the singular mass matrix before step 0
  const RunOutcome r = run(options);
  REQUIRE(r.ending.status == RunStatus::failed);
  CHECK_FALSE(fs::exists(dir.path / "final_state.json"));
  const nlohmann::json summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  CHECK(summary["final_state"].is_null());
  CHECK(r.times.stepping_seconds == 0.0);  // the loop was never reached
  check_times_add_up(r, summary);
}

TEST_CASE("the wall-clock time of a run is its setup, its stepping and its closing") {
  TempDir dir("final_state_times");
  RunOptions options = options_for("chain2d", dir.path);
  options.overrides = {{"n", 50.0}};
  options.configure().t_end = 0.2;
  const RunOutcome r = run(options);
  REQUIRE(r.ok());
  CHECK(r.times.stepping_seconds > 0.0);
  check_times_add_up(r, nlohmann::json::parse(read_file(dir.path / "summary.json")));
  check_final_state_closes_the_rows(dir.path, r);
  options.output_dir.reset();
  check_times_add_up(run(options), nullptr);
}
