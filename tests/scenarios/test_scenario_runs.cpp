/// The three mechanism scenarios through the run driver behind `noether run`: the summary and the
/// time series (with the probe columns) as docs/output.md describes them.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <noether/apps/runner.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
using testing::read_file;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST_CASE("noether run top | double-fourbar | rod-chain3d: summary.json and timeseries.csv with the probes") {
  struct Case {
    std::string scenario, stepper;
    double t_end;
    std::vector<std::string> probe_columns;
  };
  const std::vector<Case> cases{{"top", "ggl-vi", 0.02, {"com.x", "com.y", "com.z"}},
                                {"double-fourbar", "em-ggl", 0.02, {"B0.x", "B0.y"}},
                                {"rod-chain3d", "livens-em", 0.1, {"tip.x", "tip.y", "tip.z"}}};
  for (const Case& c : cases) {
    CAPTURE(c.scenario);
    TempDir dir(c.scenario);
    RunOptions options;
    options.scenario = c.scenario;
    options.configure().stepper = c.stepper;
    options.configure().t_end = c.t_end;
    options.threads = 1;
    options.output_dir = dir.path;
    const RunOutcome r = run(options);
    CHECK(r.ok());
    CHECK(r.statistics.constraint_max_abs <= 1e-10);
    const auto summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
    CHECK(summary["scenario"] == c.scenario);
    CHECK(summary["stepper"] == c.stepper);
    CHECK(summary["ok"] == true);
    CHECK(summary["newton_tolerance"].get<double>() == NewtonOptions{}.residual_tolerance);
    const std::string header = first_line(dir.path / "timeseries.csv");
    std::string expected_probes;
    for (const std::string& column : c.probe_columns) expected_probes += "," + column;
    CHECK(header.find(expected_probes + ",energy,") != std::string::npos);
  }
}

TEST_CASE("noether run rod-chain3d --stepper ggl-vi fails with the refusal in summary.json") {
  TempDir dir("scenarios_refusal");
  RunOptions options;
  options.scenario = "rod-chain3d";
  options.configure().stepper = "ggl-vi";
  options.output_dir = dir.path;
  const RunOutcome r = run(options);
  CHECK_FALSE(r.ok());
  CHECK(r.statistics.steps == 0);
  const auto summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  CHECK(summary["ok"] == false);
  CHECK(summary["error"].get<std::string>().find("inertia 'rod1.inertia' is singular (rank 6 of 12); use livens-em") !=
        std::string::npos);
}

TEST_CASE("scenario defaults follow KinonBetschSchneider2023 where it gives them") {
  const auto run_defaults = [](const std::string& name) { return find_scenario(name).run_defaults; };
  CHECK(run_defaults("top").h == 0.002);  // Sec. 5.1
  CHECK(run_defaults("top").t_end == 2.0);
  CHECK(run_defaults("double-fourbar").h == 1e-3);  // Sec. 5.2
  CHECK(run_defaults("double-fourbar").t_end == 10.0);
  CHECK(resolve_parameters(find_scenario("double-fourbar"), {}).at("damping") == 0.0);
}
