/// The momenta a scenario declares conserved (Model::conserved_momenta) in the run's outputs: their
/// values at the start and end and their drift in summary.json, a column each in timeseries.csv, the
/// values of the engine's momentum map.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>
#include <noether/engine/measures.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
using testing::read_file;
using testing::TempDir;

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

}  // namespace

TEST_CASE("top reports its angular momentum about the vertical in summary.json and timeseries.csv") {
  const TempDir dir("conserved_momenta");
  RunOptions options;
  options.scenario = "top";
  options.output_dir = dir.path;
  options.t_end = 0.2;
  options.output_every = 10;
  const RunResult result = run(options);
  REQUIRE(result.ok);

  // The value at step 0 is the engine's J_z of the scenario's initial state.
  const Scenario& top = find_scenario("top");
  const Model model = top.build(resolve_parameters(top, {}));
  const double J0 = momenta(*model.system, model.initial.q, model.initial.v).angular(2);
  REQUIRE(result.conserved_momenta.size() == 1);
  CHECK(result.conserved_momenta[0].name == "angular_momentum.z");
  CHECK(result.conserved_momenta[0].initial == J0);
  // livens-em keeps J_z to round-off (tests/scenarios/test_top.cpp: 1e-14 relative).
  MESSAGE("J_z = ", J0, ", drift over 100 steps ", result.conserved_momenta[0].drift);
  CHECK(result.conserved_momenta[0].drift <= 1e-13 * std::abs(J0));

  const auto summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  const auto& reported = summary["conserved_momenta"];
  CHECK(reported["about"] == nlohmann::json::array({0.0, 0.0, 0.0}));
  CHECK(reported["angular_momentum.z"]["initial"].get<double>() == J0);
  CHECK(reported["angular_momentum.z"]["drift"].get<double>() == result.conserved_momenta[0].drift);

  const std::vector<std::string> rows = split(read_file(dir.path / "timeseries.csv"), '\n');
  const std::vector<std::string> header = split(rows.front(), ',');
  CHECK(header.back() == "angular_momentum.z");
  REQUIRE(rows.size() == 12);  // header, steps 0, 10, ..., 100
  for (std::size_t r = 1; r < rows.size(); ++r)
    CHECK(std::abs(std::stod(split(rows[r], ',').back()) - J0) <= 1e-13 * std::abs(J0));
}

TEST_CASE("a scenario that declares no conserved momenta reports none") {
  const TempDir dir("no_conserved_momenta");
  RunOptions options;
  options.scenario = "double-pendulum";
  options.output_dir = dir.path;
  options.t_end = 0.02;
  const RunResult result = run(options);
  CHECK(result.conserved_momenta.empty());
  const auto summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  CHECK(summary["conserved_momenta"] == nlohmann::json::object());
  CHECK(split(split(read_file(dir.path / "timeseries.csv"), '\n').front(), ',').back().rfind("g:", 0) == 0);
}
