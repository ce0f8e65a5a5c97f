/// The momenta a scenario declares conserved (Model::conserved_momenta) in the run's outputs: their
/// values at the start and end and their drift in summary.json, a column each in timeseries.csv, the
/// values of the engine's momentum map.
#include <cmath>
#include <filesystem>
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

/// The last field of each line of the file (the header's first).
std::vector<std::string> last_fields(const std::filesystem::path& csv) {
  std::vector<std::string> fields;
  std::istringstream in(read_file(csv));
  for (std::string line; std::getline(in, line);) fields.push_back(line.substr(line.rfind(',') + 1));
  return fields;
}

/// Runs `scenario` with livens-em to t_end, writing every `every`-th state into dir.
RunOutcome run_into(const TempDir& dir, const std::string& scenario, double t_end, int every) {
  RunOptions options;
  options.scenario = scenario;
  options.output_dir = dir.path;
  options.configure().t_end = t_end;
  options.output_every = every;
  return run(options);
}

}  // namespace

TEST_CASE("top reports its angular momentum about the vertical in summary.json and timeseries.csv") {
  const TempDir dir("conserved_momenta");
  const RunOutcome result = run_into(dir, "top", 0.2, 10);
  REQUIRE(result.ok());

  // The value at step 0 is the engine's J_z of the scenario's initial state.
  const Scenario& top = find_scenario("top");
  const Model model = top.build(resolve_parameters(top, {}));
  const double J0 = momenta(*model.system, model.initial.q, model.initial.v).angular(2);
  REQUIRE(result.statistics.conserved_momenta.size() == 1);
  CHECK(result.statistics.conserved_momenta[0].name == "angular_momentum.z");
  CHECK(result.statistics.conserved_momenta[0].initial == J0);
  // livens-em keeps J_z to round-off (tests/scenarios/test_top.cpp: 1e-14 relative).
  MESSAGE("J_z = ", J0, ", drift over 100 steps ", result.statistics.conserved_momenta[0].drift);
  CHECK(result.statistics.conserved_momenta[0].drift <= 1e-13 * std::abs(J0));

  const auto summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  const auto& reported = summary["conserved_momenta"];
  CHECK(reported["about"] == nlohmann::json::array({0.0, 0.0, 0.0}));
  CHECK(reported["angular_momentum.z"]["initial"].get<double>() == J0);
  CHECK(reported["angular_momentum.z"]["drift"].get<double>() == result.statistics.conserved_momenta[0].drift);

  const std::vector<std::string> column = last_fields(dir.path / "timeseries.csv");
  CHECK(column.front() == "angular_momentum.z");
  REQUIRE(column.size() == 12);  // header, steps 0, 10, ..., 100
  for (std::size_t r = 1; r < column.size(); ++r) CHECK(std::abs(std::stod(column[r]) - J0) <= 1e-13 * std::abs(J0));
}

TEST_CASE("a scenario that declares no conserved momenta reports none") {
  const TempDir dir("no_conserved_momenta");
  const RunOutcome result = run_into(dir, "double-pendulum", 0.02, 1);
  CHECK(result.statistics.conserved_momenta.empty());
  const auto summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  CHECK(summary["conserved_momenta"] == nlohmann::json::object());
  CHECK(last_fields(dir.path / "timeseries.csv").front() == "h");  // the step size's column ends it
}
