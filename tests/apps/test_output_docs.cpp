/// docs/output.md documents every field of every output file: each key of summary.json
/// (of a completed and of a failed run) and of final_state.json, each fixed column of
/// timeseries.csv and each array of the VTK drawings appears there as `name`.
#include <filesystem>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>
#include "support/run_output_files.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

/// The fields of dir's files that the page must name.
std::set<std::string> fields_of(const fs::path& dir) {
  std::set<std::string> fields;
  for (const char* file : {"summary.json", "final_state.json"}) {
    const nlohmann::json object = nlohmann::json::parse(read_file(dir / file));
    for (const auto& item : object.items()) fields.insert(item.key());
  }
  const std::string csv = read_file(dir / "timeseries.csv");
  const std::string header = csv.substr(0, csv.find('\n')) + ",";
  for (std::size_t begin = 0, end; (end = header.find(',', begin)) != std::string::npos; begin = end + 1) {
    const std::string column = header.substr(begin, end - begin);
    const std::size_t colon = column.find(':');
    fields.insert(colon == std::string::npos ? column : column.substr(0, colon + 1));  // "q:", "g:" families
  }
  std::erase_if(fields, [](const std::string& f) { return f.starts_with("mass."); });  // a probe's, as <probe>.x
  for (const fs::directory_entry& file : fs::directory_iterator(dir / "vtk"))
    for (const std::string& name : attribute_values(read_file(file.path()), "Name")) fields.insert(name);
  return fields;
}

}  // namespace

TEST_CASE("docs/output.md names every field of every output file") {
  const std::string page = read_file(fs::path(NOETHER_SOURCE_DIR) / "docs" / "output.md");
  REQUIRE_FALSE(page.empty());
  TempDir completed("output_docs_completed"), failed("output_docs_failed");
  RunOptions options;
  options.scenario = "spring-pendulum";
  options.threads = 1;
  options.configure().t_end = 0.05;
  options.output_dir = completed.path;
  REQUIRE(run(options).ok());
  options.scenario = "double-pendulum";
  options.configure().newton.max_iterations = 1;  // too few, and no refinement: fails at step 1
  options.configure().max_refinement_depth = 0;
  options.output_dir = failed.path;
  REQUIRE(run(options).ending.status == RunStatus::failed);
  std::set<std::string> fields = fields_of(completed.path);
  fields.merge(fields_of(failed.path));
  CHECK(fields.contains("failure"));
  CHECK(fields.contains("discrete_energy"));
  CHECK(fields.contains("constraint_residual"));
  for (const std::string& field : fields) {
    CAPTURE(field);
    CHECK(page.find("`" + field) != std::string::npos);
  }
}
