#include <noether/apps/cli_arguments.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <stdexcept>
#include <memory>
#include <string_view>
#include <vector>

#include <noether/apps/scene_file.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// Run settings a user may take for scenario parameters: the key given to `--set` and the setting
/// (run_settings()) whose option to use instead, so that `--set h=0.01` is refused with `--h 0.01`.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> settings_mistaken_for_parameters{
    {{"h", "h"}, {"t_end", "t_end"}, {"newton_tol", "newton_tolerance"}}};

}  // namespace

std::pair<std::string, double> parse_assignment(const Scenario& scenario, const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("--set expects key=value (e.g. --set m1=2.5), got " + quote(text));
  const std::string key = text.substr(0, equals), value = text.substr(equals + 1);
  for (const auto& [parameter, setting] : settings_mistaken_for_parameters)
    if (key == parameter)
      throw std::invalid_argument("--set " + text + ": " + key + " is a run setting, not a scenario parameter; use " +
                                  std::string(run_setting(setting).flag) + " " + value);
  return {key, parse_parameter_value(scenario, key, value)};
}

std::optional<std::pair<std::string, double>> parse_scheme_assignment(const StepperInfo& stepper,
                                                                     const Scenario& scenario,
                                                                     const std::string& text) {
  const std::string key = text.substr(0, text.find('='));
  const auto declares = [&](const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.name == key; });
  };
  if (key.size() < text.size() && !declares(stepper.parameters) && !declares(scenario.parameters))
    for (const StepperInfo& other : steppers())
      if (declares(other.parameters)) {
        std::string message = "--set ";
        message += text;
        message += ": ";
        message += key;
        message += " is a parameter of stepper ";
        message += other.name;
        message += ", not of stepper ";
        message += stepper.name;
        message += " or scenario ";
        message += scenario.name;
        message += "; add --stepper ";
        message += other.name;
        throw std::invalid_argument(message);
      }
  if (key.size() == text.size() || !declares(stepper.parameters)) return std::nullopt;
  if (declares(scenario.parameters)) {
    std::string message = "--set ";
    message += text;
    message += ": both stepper ";
    message += stepper.name;
    message += " and scenario ";
    message += scenario.name;
    message += " have a parameter ";
    message += quote(key);
    message += "; rename one of them";
    throw std::invalid_argument(message);
  }
  return std::pair{key, parse_number("--set " + key, text.substr(key.size() + 1))};
}

namespace {

/// The scene of source as the run's model: its output settings are the defaults of the options
/// that the command line may change, as its run settings are (RunOptions::configure).
void use_scene(SceneSource source, RunOptions& options) {
  const std::shared_ptr<const Scene> scene = source.scene;
  options.scene = std::move(source);
  options.output_every = scene->output_every;
  options.write_motion = scene->output_vtk;
  options.write_reactions = scene->output_reactions;
  if (scene->output_directory) options.output_dir = *scene->output_directory;
}

/// The scene file's --set: only the stepper's own parameters.
void set_scene_parameters(const RunArguments& arguments, RunOptions& options) {
  RunConfiguration& settings = options.configure();
  const StepperInfo& stepper = find_stepper(settings.stepper);
  std::set<std::string, std::less<>> given;
  for (const std::string& assignment : arguments.assignments) {
    const std::string key = assignment.substr(0, assignment.find('='));
    const bool declared = std::any_of(stepper.parameters.begin(), stepper.parameters.end(),
                                      [&](const SchemeParameter& p) { return p.name == key; });
    if (!declared || key.size() == assignment.size())
      throw std::invalid_argument("--set " + assignment + ": a scene file has no parameters to set; edit " +
                                  (options.scene->path.empty() ? "its mechanism" : options.scene->path.string()) +
                                  " (--set takes only the stepper's parameters here)");
    if (!given.insert(key).second) throw std::invalid_argument("--set " + key + " is given twice; give each parameter once");
    settings.scheme_parameters[key] = parse_number("--set " + key, assignment.substr(key.size() + 1));
  }
}

/// The scenario's --set: its parameters, and the stepper's own.
void set_scenario_parameters(const RunArguments& arguments, RunOptions& options) {
  RunConfiguration& settings = options.configure();
  const StepperInfo& stepper = find_stepper(settings.stepper);
  const Scenario& scenario = find_scenario(arguments.scenario);
  for (const std::string& assignment : arguments.assignments) {
    const std::optional<std::pair<std::string, double>> scheme = parse_scheme_assignment(stepper, scenario, assignment);
    const auto [key, value] = scheme ? *scheme : parse_assignment(scenario, assignment);
    const bool first = scheme ? settings.scheme_parameters.emplace(key, value).second : options.overrides.emplace(key, value).second;
    if (!first) throw std::invalid_argument("--set " + key + " is given twice; give each parameter once");
  }
}

/// Each setting given, converted by its row over the defaults of options (the scene's or the
/// scenario's), in the table's order.
void apply_settings(const RunArguments& arguments, RunOptions& options) {
  options.configure();  // the defaults the options given change
  for (const RunSetting& setting : run_settings())
    if (const std::optional<std::string>& text = arguments.given(setting.name); text && setting.apply)
      setting.apply(setting, *text, options);
}

}  // namespace

std::vector<std::string_view> options_export_refuses() {
  std::vector<std::string_view> flags;
  for (const RunSetting& setting : run_settings())
    if (!setting.exported) flags.push_back(setting.flag);
  return flags;
}

void check_export_arguments(const RunArguments& arguments) {
  const std::vector<std::string_view> refused = options_export_refuses();
  std::string list;
  for (std::size_t i = 0; i < refused.size(); ++i)
    list += (i == 0 ? "" : i + 1 == refused.size() ? " and " : ", ") + std::string(refused[i]);
  for (const RunSetting& setting : run_settings())
    if (const std::optional<std::string>& text = arguments.given(setting.name); text && !setting.exported)
      throw std::invalid_argument(std::string(setting.flag) + " " + quote(*text) + ": noether export writes a scene, " +
                                  "not a run's files; it takes the options of run but " + list +
                                  " (give this one to noether run)");
}

bool parts_asked(const RunArguments& arguments) {
  RunOptions asked;
  if (const std::optional<std::string>& text = arguments.given("parts")) {
    const RunSetting& setting = run_setting("parts");
    setting.apply(setting, *text, asked);
  }
  if (is_scene_file_name(arguments.scenario)) return over_parts(asked.parts, false);
  const auto scenario = std::ranges::find(scenarios(), arguments.scenario, &Scenario::name);
  return over_parts(asked.parts, scenario != scenarios().end() && scenario->generate);
}

const std::optional<std::string>& RunArguments::given(std::string_view name) const {
  static const std::optional<std::string> none;
  const auto entry = settings.find(name);
  return entry == settings.end() ? none : entry->second;
}

RunOptions to_run_options(const RunArguments& arguments, SceneBuild build) {
  if (is_scene_file_name(arguments.scenario))
    return to_run_options(arguments,
                          SceneSource{arguments.scenario, std::make_shared<const Scene>(load_scene(arguments.scenario, build))});
  RunOptions options;
  options.scenario = arguments.scenario;
  apply_settings(arguments, options);
  set_scenario_parameters(arguments, options);
  return options;
}

RunOptions to_run_options(const RunArguments& arguments, SceneSource scene) {
  RunOptions options;
  use_scene(std::move(scene), options);
  apply_settings(arguments, options);
  set_scene_parameters(arguments, options);
  return options;
}

}  // namespace noether
