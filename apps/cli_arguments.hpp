#pragma once
/// The `noether run` arguments as typed on the command line, and their conversion to RunOptions.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <noether/apps/run_settings.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {

/// Raw option texts; an absent option keeps its default (to_run_options).
struct RunArguments {
  std::string scenario;  ///< a scenario's name, or a scene file (a name ending in .json)
  /// The text of each run setting's option given, by RunSetting::name (run_settings()).
  std::map<std::string_view, std::optional<std::string>> settings;
  std::vector<std::string> assignments;  ///< each "key=value" from one --set

  /// The text given for the setting named `name`, if any.
  const std::optional<std::string>& given(std::string_view name) const;
};

/// The options the arguments give: the scenario's settings (or, for a scene file, loaded first, its
/// run and output settings; its errors name the file and the JSON path), changed by each text
/// given, converted and checked by its setting's RunSetting::apply in the table's order. Throws
/// std::invalid_argument naming the option, the text and what is accepted (a number, a whole
/// number in the setting's range, key=value, a solver the steppers accept, full or modified;
/// --newton-refresh only for modified Newton; on or off for --vtk). For a scene file, --set
/// reaches only the stepper's parameters, over the scene's own.
/// `build` says how much of a scene file's model is read and built as it is read (SceneBuild::outlined
/// for a run over parts, whose processes read and build their parts).
RunOptions to_run_options(const RunArguments& arguments, SceneBuild build = SceneBuild::whole);
/// Whether the arguments run over parts on several processes (over_parts: `--parts on`, or `auto`
/// for a generated scenario), `--parts` read as to_run_options reads it (the same refusal of
/// another value); an unknown scenario's run is not (to_run_options refuses it).
bool parts_asked(const RunArguments& arguments);
/// to_run_options for a scene already read (the Python module's mechanisms, docs/python.md): its
/// model and settings in place of a file's, arguments.scenario unused.
RunOptions to_run_options(const RunArguments& arguments, SceneSource scene);

/// The options `noether export` refuses, in the table's order: the run settings that are not
/// RunSetting::exported (--threads, --out, --vtk, --checkpoint-every), which say how a run uses the
/// machine and writes its files, not what the scene it writes holds.
std::vector<std::string_view> options_export_refuses();

/// Throws std::invalid_argument naming the first option given that `noether export` refuses, with
/// the list of them (options_export_refuses), and `noether run` as where it belongs.
void check_export_arguments(const RunArguments& arguments);

/// "key=value" from --set: a number, or the name of a choice of that scenario parameter. The run
/// settings once given as parameters (h, t_end, newton_tol) are refused with their option.
std::pair<std::string, double> parse_assignment(const Scenario& scenario, const std::string& text);
/// "key=value" from --set when the stepper declares key (SchemeParameter): the key and the number;
/// nullopt for a key it does not declare. Throws std::invalid_argument naming both when the
/// scenario has a parameter of that name too, naming the stepper to choose when only another
/// stepper declares the key, or when the value is not a number.
std::optional<std::pair<std::string, double>> parse_scheme_assignment(const StepperInfo& stepper,
                                                                     const Scenario& scenario, const std::string& text);

}  // namespace noether
