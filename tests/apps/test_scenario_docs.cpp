/// docs/scenarios.md documents every scenario's parameters: its table "Every
/// parameter" is the one the scenario registry gives, name, default, range and meaning, so that
/// the page cannot fall behind the source. When a parameter changes, the test prints the table to
/// paste.
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/format.hpp>

using namespace noether;

namespace {

std::string default_text(const ScenarioParameter& p) {
  if (p.choices.empty()) return format_number(p.default_value);
  return p.choices.at(static_cast<std::size_t>(p.default_value));
}

/// Markdown cells cannot hold '|'.
std::string cell(std::string text) {
  std::string escaped;
  for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

std::string parameter_table() {
  std::string table = "| scenario | parameter | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const Scenario& s : scenarios())
    for (const ScenarioParameter& p : s.parameters)
      table += "| `" + s.name + "` | `" + p.name + "` | " + default_text(p) + " | " + p.describe_values() + " | " +
               cell(p.description) + " |\n";
  return table;
}

/// Whether a heading line ("## top", "### nfourbar and grid2d") names `name` as a word.
bool has_heading_naming(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("##", 0) != 0) continue;
    std::istringstream words(line);
    for (std::string word; words >> word;)
      if (word == name) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("docs/scenarios.md lists every scenario parameter with its default, range and meaning") {
  std::ifstream file(std::string(NOETHER_SOURCE_DIR) + "/docs/scenarios.md");
  REQUIRE(file);
  std::stringstream docs;
  docs << file.rdbuf();
  const std::string table = parameter_table();
  INFO("docs/scenarios.md, section \"Every parameter\", should hold this table:\n" << table);
  CHECK(docs.str().find(table) != std::string::npos);
  for (const Scenario& s : scenarios()) {
    INFO("scenario " << s.name << " has no section (a heading that names it)");
    CHECK(has_heading_naming(docs.str(), s.name));
  }
}
