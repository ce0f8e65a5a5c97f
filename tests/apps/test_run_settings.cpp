/// The table of run settings (apps/run_settings.hpp) against what reads and writes the settings:
/// every range is one range, so `noether export` writes only what `noether run` accepts and both
/// refuse the same values; docs/cli.md's option table, the scene schema, summary.json and
/// checkpoint.json name what the table names.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/cli_arguments.hpp>
#include <noether/apps/run_settings.hpp>
#include <noether/apps/scene_export.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/engine/format.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

/// A setting with a range to test at its ends: a whole number or a number bounded on both sides.
bool has_two_ends(const RunSetting& s) {
  const ParameterRange& r = s.values.range;
  return s.values.kind == SettingValues::Kind::whole ||
         (s.values.kind == SettingValues::Kind::number && std::isfinite(r.low) && std::isfinite(r.high));
}

/// The values at the ends of the setting's range (for an open end at 0 the smallest normal number,
/// as subnormal magnitudes are refused), and one value past each end.
struct Ends {
  std::string low, high, below, above;
};

Ends ends_of(const RunSetting& s) {
  const ParameterRange& r = s.values.range;
  const auto whole = [](double x) { return std::to_string(static_cast<long long>(x)); };
  if (s.values.kind == SettingValues::Kind::whole)
    return {whole(r.low), whole(r.high), whole(r.low - 1), whole(r.high + 1)};
  const double low = r.low_open ? (r.low == 0 ? DBL_MIN : std::nextafter(r.low, r.high)) : r.low;
  const double high = r.high_open ? std::nextafter(r.high, r.low) : r.high;
  const double below = r.low_open ? r.low : std::nextafter(r.low, -INFINITY);
  const double above = r.high_open ? r.high : std::nextafter(r.high, INFINITY);
  return {format_exact(low), format_exact(high), format_exact(below), format_exact(above)};
}

/// The arguments of `noether export double-pendulum --h 0.01 --t 0.01 FLAG text` (one step; with
/// --newton modified for the refresh contraction, which acts on modified Newton only).
RunArguments arguments_with(const RunSetting& s, const std::string& text) {
  RunArguments a;
  a.scenario = "double-pendulum";
  a.settings["h"] = "0.01";
  a.settings["t_end"] = "0.01";
  if (s.name == "newton_refresh") a.settings["newton_method"] = "modified";
  a.settings[s.name] = text;
  return a;
}

/// What `noether export` with the setting at text writes; throws as the command does.
std::string exported(const RunSetting& s, const std::string& text) {
  return scene_json(export_scene(to_run_options(arguments_with(s, text))));
}

/// The message of what refuses, or nullopt when f accepts.
template <class F>
std::optional<std::string> refusal(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return std::nullopt;
}

/// The document with the value at the setting's scene key replaced by `text` read as JSON.
std::string with_value(const std::string& scene, const RunSetting& s, const std::string& text) {
  nlohmann::ordered_json document = nlohmann::ordered_json::parse(scene);
  const nlohmann::ordered_json value =
      s.values.kind == SettingValues::Kind::choice ? nlohmann::ordered_json(text) : nlohmann::ordered_json::parse(text);
  document[nlohmann::ordered_json::json_pointer(std::string(s.scene_key))] = value;
  return document.dump();
}

/// The schema of the setting's scene key (docs/scene.schema.json).
nlohmann::json schema_of(const nlohmann::json& schema, std::string_view key) {
  std::istringstream parts{std::string(key.substr(1))};
  std::string part;
  std::getline(parts, part, '/');
  nlohmann::json node = part == "run" ? schema["$defs"]["run"] : schema["properties"][part];
  while (std::getline(parts, part, '/')) node = node["properties"][part];
  return node;
}

/// A value of the setting other than `value`, as its option spells it: another choice, the other
/// end of its range, or another text.
std::string another_value(const RunSetting& s, const std::string& value) {
  if (s.values.kind == SettingValues::Kind::choice) return std::string(s.values.choices[value == s.values.choices[0] ? 1 : 0]);
  if (s.values.kind == SettingValues::Kind::text) return value + "x";
  const Ends ends = ends_of(s);
  return value == ends.low ? ends.high : ends.low;
}

/// A run's options of `scenario` with the settings it has when none is chosen.
RunOptions defaults_of(const Scenario& scenario) {
  RunOptions options;
  options.scenario = scenario.name;
  options.configure();
  return options;
}

/// The scene file `noether export double-pendulum ARGUMENTS` writes, at `file`.
void export_to(const fs::path& file, const std::map<std::string_view, std::optional<std::string>>& settings,
               const std::vector<std::string>& assignments = {}) {
  RunArguments a;
  a.scenario = "double-pendulum";
  a.settings = settings;
  a.assignments = assignments;
  std::ofstream(file) << scene_json(export_scene(to_run_options(a)));
}

}  // namespace

TEST_CASE("docs/cli.md's option table is the table of run settings, row by row") {
  const std::string page = read_file(fs::path(NOETHER_SOURCE_DIR) / "docs" / "cli.md");
  std::string table = "| option | meaning | default |\n|---|---|---|\n";
  for (const RunSetting& s : run_settings()) table += cli_doc_row(s) + "\n";
  INFO("expected in docs/cli.md:\n", table);
  CHECK(page.find(table) != std::string::npos);
}

TEST_CASE("docs/scene.schema.json gives each scene setting the table's range") {
  const nlohmann::json schema =
      nlohmann::json::parse(read_file(fs::path(NOETHER_SOURCE_DIR) / "docs" / "scene.schema.json"));
  for (const RunSetting& s : run_settings()) {
    if (s.scene_key.empty()) continue;
    CAPTURE(s.scene_key);
    const nlohmann::json node = schema_of(schema, s.scene_key);
    REQUIRE(node.is_object());
    const ParameterRange& r = s.values.range;
    if (s.values.kind == SettingValues::Kind::choice && s.name != "vtk") {
      CHECK(node["enum"].size() == s.values.choices.size());
      for (std::string_view c : s.values.choices) CHECK(std::find(node["enum"].begin(), node["enum"].end(), c) != node["enum"].end());
    }
    if (s.values.kind == SettingValues::Kind::whole) {
      CHECK(node["type"] == "integer");
      CHECK(node["minimum"] == r.low);
      if (r.high < std::numeric_limits<int>::max()) CHECK(node["maximum"] == r.high);
    }
    if (s.values.kind == SettingValues::Kind::number) {
      CHECK(node[r.low_open ? "exclusiveMinimum" : "minimum"] == r.low);
      if (std::isfinite(r.high)) CHECK(node[r.high_open ? "exclusiveMaximum" : "maximum"] == r.high);
    }
  }
}

TEST_CASE("export writes what run accepts at both ends of every range, and both refuse one past each end") {
  TempDir dir("run_settings_ends");
  fs::create_directories(dir.path);
  for (const RunSetting& s : run_settings()) {
    if (!has_two_ends(s) || s.scene_key.empty() || !s.exported) continue;
    const Ends ends = ends_of(s);
    for (const std::string& end : {ends.low, ends.high}) {
      INFO(s.flag, " ", end);
      const std::string scene = exported(s, end);
      const fs::path file = dir.path / "s.json";
      std::ofstream(file) << scene;
      RunArguments a;
      a.scenario = file.string();
      const RunOptions options = to_run_options(a);
      CHECK(scene_json(export_scene(options)) == scene);  // read back to the same bytes
      CHECK_FALSE(refusal([&] { return run(options); }));  // a run that may fail, but not a usage error
    }
    const std::string valid = exported(s, ends.low);
    for (const std::string& past : {ends.below, ends.above}) {
      INFO(s.flag, " ", past);
      const std::optional<std::string> command = refusal([&] { return exported(s, past); });
      const std::optional<std::string> file = refusal([&] { return parse_scene(with_value(valid, s, past), "s.json"); });
      REQUIRE(command);
      REQUIRE(file);
      CHECK(command->find(s.flag) != std::string::npos);
      CHECK(file->find(std::string(s.scene_key) + ": ") != std::string::npos);
      if (s.values.kind == SettingValues::Kind::whole && s.values.range.high < std::numeric_limits<int>::max()) {
        const std::string rule = s.values.range.describe();  // the one range, stated alike
        CHECK(command->find(rule) != std::string::npos);
        CHECK(file->find(rule) != std::string::npos);
      }
    }
  }
}

TEST_CASE("a choice the table does not hold is refused on the command line and in a scene file") {
  for (const RunSetting& s : run_settings()) {
    if (s.values.kind != SettingValues::Kind::choice || !s.exported) continue;
    CAPTURE(s.flag);
    for (std::string_view c : s.values.choices) CHECK_FALSE(refusal([&] { return exported(s, std::string(c)); }));
    const std::string valid = exported(s, std::string(s.values.choices[0]));
    CHECK(refusal([&] { return exported(s, "nope"); }));
    const std::optional<std::string> file = refusal([&] { return parse_scene(with_value(valid, s, "nope"), "s.json"); });
    REQUIRE(file);
    CHECK(file->find(std::string(s.scene_key) + ": unknown value 'nope'") != std::string::npos);
  }
}

TEST_CASE("summary.json, checkpoint.json and an exported scene hold every key the table names") {
  TempDir dir("run_settings_keys");
  RunArguments a;
  a.scenario = "double-pendulum";
  a.settings = {{"stepper", "evi"}, {"h", "0.01"}, {"t_end", "0.02"}, {"checkpoint_every", "1"},
                {"threads", "1"}, {"vtk", "off"}, {"output_directory", dir.path.string()}};
  a.assignments = {"S=3"};
  REQUIRE(run(to_run_options(a)).ok());
  const nlohmann::json summary = nlohmann::json::parse(read_file(dir.path / "summary.json"));
  const nlohmann::json checkpoint = nlohmann::json::parse(read_file(dir.path / Checkpoint::kFileName))["options"];
  a.settings.erase("checkpoint_every");
  a.settings.erase("threads");
  a.settings.erase("vtk");
  a.settings.erase("output_directory");
  const nlohmann::json scene = nlohmann::json::parse(scene_json(export_scene(to_run_options(a))));
  for (const RunSetting& s : run_settings()) {
    CAPTURE(s.name);
    if (!s.summary_key.empty()) CHECK(summary.contains(std::string(s.summary_key)));
    if (!s.checkpoint_key.empty()) CHECK(checkpoint.contains(std::string(s.checkpoint_key)));
    if (s.exported && !s.scene_key.empty())
      CHECK(scene.contains(nlohmann::json::json_pointer(std::string(s.scene_key))));
  }
}

TEST_CASE("each default --help and docs/cli.md show is the value the run starts with, or says it is the scenario's") {
  const RunOptions defaults = default_run_options();
  for (const RunSetting& s : run_settings()) {
    CAPTURE(s.name);
    if (!s.shown) {
      CHECK(s.values.kind == SettingValues::Kind::family);  // --set: the scenario's and the stepper's own
      continue;
    }
    std::set<std::optional<std::string>> by_scenario;
    for (const Scenario& scenario : scenarios()) by_scenario.insert(s.shown(defaults_of(scenario)));
    CHECK(option_help(s).ends_with(" (default: " + default_text(s) + ")"));
    if (s.default_note == "the scenario's") {
      CHECK(by_scenario.size() > 1);  // it does vary, so the docs say whose it is
      continue;
    }
    REQUIRE(by_scenario.size() == 1);  // one default, whatever the scenario: the docs may show it
    CHECK(*by_scenario.begin() == s.shown(defaults));
    const std::optional<std::string> shown = s.shown(defaults);
    if (s.default_note.empty()) CHECK(default_text(s) == shown.value_or("none"));
    if (!shown) continue;
    RunOptions changed = default_run_options();  // the shown text read back over another value gives the default
    if (s.name == "newton_refresh") changed.configure().newton.modified = true;
    s.apply(s, another_value(s, *shown), changed);
    CHECK(s.shown(changed) != shown);
    s.apply(s, *shown, changed);
    CHECK(s.shown(changed) == shown);
  }
  CHECK(run_setting("threads").default_note == "all cores");
  CHECK(run_setting("threads").shown(defaults) == std::to_string(available_threads()));
}

TEST_CASE("the options given change a scene file's settings: --set a stepper parameter, --newton-refresh its modified Newton") {
  TempDir dir("run_settings_scene_options");
  fs::create_directories(dir.path);
  const fs::path file = dir.path / "s.json";
  export_to(file, {{"stepper", "evi"}, {"h", "0.01"}, {"t_end", "0.02"}, {"newton_method", "modified"}}, {"S=3"});
  RunArguments a;
  a.scenario = file.string();
  CHECK(resolve_run_configuration(to_run_options(a)).scheme_parameters.at("S") == 3.0);
  a.assignments = {"S=4"};
  CHECK(resolve_run_configuration(to_run_options(a)).scheme_parameters.at("S") == 4.0);
  a.assignments = {"S=4", "S=5"};
  CHECK(refusal([&] { return to_run_options(a); }) == "--set S is given twice; give each parameter once");
  a.assignments.clear();
  a.settings["newton_refresh"] = "0.5";  // the scene's Newton is modified: the contraction acts on it
  const RunConfiguration c = resolve_run_configuration(to_run_options(a));
  CHECK(c.newton.modified);
  CHECK(c.newton.refresh_contraction == 0.5);
}

TEST_CASE("export refuses by name exactly the options docs/cli.md says it does not take") {
  // Issue 40: `export --vtk off` was "The following arguments were not expected: off --vtk", though
  // docs/cli.md said export takes every option of run but --threads and --out.
  std::string listed;
  const std::vector<std::string_view> refused = options_export_refuses();
  for (std::size_t i = 0; i < refused.size(); ++i)
    listed += (i == 0 ? "`" : i + 1 == refused.size() ? " and `" : ", `") + std::string(refused[i]) + "`";
  std::string page = read_file(fs::path(NOETHER_SOURCE_DIR) / "docs" / "cli.md");
  std::replace(page.begin(), page.end(), '\n', ' ');
  INFO("docs/cli.md should say: it takes the options of `run` but ", listed);
  CHECK(page.find("it takes the options of `run` but " + listed + ",") != std::string::npos);
  for (const RunSetting& s : run_settings()) {
    CAPTURE(s.flag);
    RunArguments a;
    a.scenario = "double-pendulum";
    a.settings[s.name] = s.values.kind == SettingValues::Kind::choice ? std::string(s.values.choices[0]) : "1";
    const std::optional<std::string> refusal_text = refusal([&] { check_export_arguments(a); });
    CHECK(refusal_text.has_value() == !s.exported);
    if (refusal_text)
      CHECK(*refusal_text == std::string(s.flag) + " '" + *a.settings[s.name] +
                                 "': noether export writes a scene, not a run's files; it takes the options of run but "
                                 "--threads, --parts, --out, --vtk and --checkpoint-every (give this one to noether run)");
  }
}

TEST_CASE("export refuses the issue's --newton-max-iterations 5000, which run refuses") {
  // Issue 40, defect 6: `noether export double-pendulum --newton-max-iterations 5000` wrote a scene
  // that `noether run` refused ("/run/newton/max_iterations: must be a whole number from 1 to 1000").
  const RunSetting& s = run_setting("newton_max_iterations");
  const std::optional<std::string> command = refusal([&] { return exported(s, "5000"); });
  REQUIRE(command);
  CHECK(*command == "--newton-max-iterations expects a whole number from 1 to 1000, got '5000'");
}
