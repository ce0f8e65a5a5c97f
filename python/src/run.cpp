/// noether.run's C++ half: the run of `noether run`, its options converted from the settings' texts
/// by the CLI's own conversion (to_run_options), and the table of run settings.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include <noether/apps/cli_arguments.hpp>
#include <noether/apps/interrupt_signals.hpp>
#include <noether/apps/run_settings.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/apps/summary_json.hpp>
#include <noether/engine/quote.hpp>

#include "bindings.hpp"

namespace noether::python {
namespace {

std::string_view kind_name(SettingValues::Kind kind) {
  switch (kind) {
    case SettingValues::Kind::number: return "number";
    case SettingValues::Kind::whole: return "whole";
    case SettingValues::Kind::choice: return "choice";
    case SettingValues::Kind::text: return "text";
    case SettingValues::Kind::family: return "family";
  }
  return "text";
}

/// The table's rows as Python reads them: name, flag, the kind of value, its choices, the default
/// as --help shows it, and the help text.
py::list settings_table() {
  py::list rows;
  for (const RunSetting& s : run_settings()) {
    py::dict row;
    row["name"] = std::string(s.name);
    row["flag"] = std::string(s.flag);
    row["kind"] = std::string(kind_name(s.values.kind));
    std::vector<std::string> choices(s.values.choices.begin(), s.values.choices.end());
    row["choices"] = choices;
    row["default"] = default_text(s);
    row["help"] = s.help;
    rows.append(row);
  }
  return rows;
}

/// The table's own view of the name of a setting (RunArguments keys by it); std::invalid_argument
/// for a name not in the table.
std::string_view table_name(const std::string& name) {
  for (const RunSetting& s : run_settings())
    if (s.name == name) return s.name;
  throw std::invalid_argument("no run setting named " + quote(name) + " (noether.run_settings() lists them)");
}

/// The arguments of `noether run SOURCE` with each setting's text, by its name, and `--set`'s.
RunArguments arguments_of(const std::string& source, const std::map<std::string, std::string>& settings,
                          const std::vector<std::string>& assignments) {
  RunArguments arguments;
  arguments.scenario = source;
  for (const auto& [name, text] : settings) arguments.settings[table_name(name)] = text;
  arguments.assignments = assignments;
  return arguments;
}

/// What a finished run returns to Python: its summary.json as text, how it ended, its files.
py::dict outcome_dict(const RunOutcome& outcome) {
  py::dict d;
  d["summary"] = summary_json(outcome).dump();
  d["status"] = std::string(to_string(outcome.ending.status));
  d["interrupt_signal"] = outcome.ending.interrupt_signal;
  d["error"] = outcome.ending.error;
  d["timeseries"] = outcome.files.timeseries;
  return d;
}

/// Runs the options `make_options` makes (reading a scene, converting the settings) with the GIL
/// released; with `catch_signals`, SIGHUP, SIGINT and SIGTERM ask the run to stop after its step
/// in progress (InterruptSignals, as `noether run` does), and the previous handlers (Python's) are
/// back when it returns.
template <class MakeOptions>
py::dict run_options(const MakeOptions& make_options, bool catch_signals) {
  RunOutcome outcome;
  {
    py::gil_scoped_release unlocked;
    RunOptions options = make_options();
    std::optional<InterruptSignals> signals;
    if (catch_signals) {
      signals.emplace();
      options.interrupt = &signals->requested();
    }
    outcome = run(options);
  }
  return outcome_dict(outcome);
}

}  // namespace

void bind_run(py::module_& m) {
  m.def("run_settings", &settings_table, "the rows of the run settings' table (apps/run_settings.cpp)");
  m.def(
      "run_source",
      [](const std::string& source, const std::map<std::string, std::string>& settings,
         const std::vector<std::string>& assignments, bool catch_signals) {
        const RunArguments arguments = arguments_of(source, settings, assignments);
        return run_options([&] { return to_run_options(arguments); }, catch_signals);
      },
      py::arg("source"), py::arg("settings"), py::arg("assignments"), py::arg("catch_signals"),
      "`noether run SOURCE` (a scenario's name or a scene file) with the settings' texts by name");
  m.def(
      "run_scene_text",
      [](const std::string& text, const std::string& origin, const std::map<std::string, std::string>& settings,
         const std::vector<std::string>& assignments, bool catch_signals) {
        const RunArguments arguments = arguments_of("", settings, assignments);
        return run_options(
            [&] {
              return to_run_options(arguments, SceneSource{"", std::make_shared<const Scene>(parse_scene(text, origin))});
            },
            catch_signals);
      },
      py::arg("text"), py::arg("origin"), py::arg("settings"), py::arg("assignments"), py::arg("catch_signals"),
      "`noether run` of a scene given as its JSON text (a Mechanism's), with the settings' texts by name");
}

}  // namespace noether::python
