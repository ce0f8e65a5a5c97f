#include <noether/apps/cli_arguments.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <memory>
#include <string_view>

#include <noether/apps/scene_file.hpp>

namespace noether {
namespace {

/// The run settings that were scenario parameters before they got their own options.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> run_setting_options{
    {{"h", "--h"}, {"t_end", "--t"}, {"newton_tol", "--newton-tol"}}};

/// The Newton settings among the arguments.
void apply_newton_arguments(const RunArguments& arguments, RunOptions& options) {
  if (arguments.newton_tol) options.newton_tolerance = parse_number("--newton-tol", *arguments.newton_tol);
  if (arguments.newton_max_iterations)
    options.newton_max_iterations = parse_positive_count("--newton-max-iterations", *arguments.newton_max_iterations);
  if (arguments.newton) options.newton_modified = parse_newton_method(*arguments.newton);
  if (!arguments.newton_refresh) return;
  if (!options.newton_modified.value_or(false))
    throw std::invalid_argument("--newton-refresh " + *arguments.newton_refresh +
                                " acts on modified Newton only; add --newton modified");
  options.newton_refresh_contraction = parse_number("--newton-refresh", *arguments.newton_refresh);
}

}  // namespace

double parse_number(const std::string& what, const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    throw std::invalid_argument(what + " expects a number (e.g. 0.01 or 1e-3), got '" + text + "'");
  return value;
}

namespace {

/// The whole number text spells, in digits or in exponent form (1e6 is 1000000); nullopt for text
/// that is no number or not a whole one (2.5, nan, inf). A number beyond the doubles is +inf.
std::optional<double> whole_number(const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || stop != end || (error != std::errc() && error != std::errc::result_out_of_range)) return {};
  if (error == std::errc::result_out_of_range) return std::numeric_limits<double>::infinity();
  if (std::isnan(value) || (std::isfinite(value) && value != std::floor(value))) return {};
  return value;
}

}  // namespace

int parse_positive_count(const std::string& what, const std::string& text) {
  const std::optional<double> value = whole_number(text);
  if (!value || *value < 1) throw std::invalid_argument(what + " expects a whole number >= 1, got '" + text + "'");
  return parse_count_in(what, text, 1, std::numeric_limits<int>::max());
}

int parse_count_in(const std::string& what, const std::string& text, int low, int high) {
  const std::optional<double> value = whole_number(text);
  if (!value || *value < low || *value > high)
    throw std::invalid_argument(what + " expects a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high) + ", got '" + text + "'");
  return static_cast<int>(*value);
}

std::pair<std::string, double> parse_assignment(const Scenario& scenario, const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("--set expects key=value (e.g. --set m1=2.5), got '" + text + "'");
  const std::string key = text.substr(0, equals), value = text.substr(equals + 1);
  for (const auto& [setting, option] : run_setting_options)
    if (key == setting)
      throw std::invalid_argument("--set " + text + ": " + key + " is a run setting, not a scenario parameter; use " +
                                  std::string(option) + " " + value);
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
    message += " have a parameter '";
    message += key;
    message += "'; rename one of them";
    throw std::invalid_argument(message);
  }
  return std::pair{key, parse_number("--set " + key, text.substr(key.size() + 1))};
}

LinearSolverKind parse_solver(const std::string& text) {
  if (text == to_string(LinearSolverKind::cholmod))
    throw std::invalid_argument(
        "--solver cholmod: CHOLMOD needs a symmetric positive definite matrix, and the steppers' Newton matrices "
        "are unsymmetric and indefinite (CHOLMOD serves the projection of initial values); accepted: klu, umfpack, "
        "eigen");
  const std::optional<LinearSolverKind> kind = parse_linear_solver_kind(text);
  if (!kind) throw std::invalid_argument("unknown solver '" + text + "'; accepted: klu, umfpack, eigen");
  return *kind;
}

bool parse_newton_method(const std::string& text) {
  if (text == "full" || text == "modified") return text == "modified";
  throw std::invalid_argument("--newton expects full or modified, got '" + text + "'");
}

namespace {

/// The scene file `path` as the run's model; --set reaches only the stepper's parameters.
void apply_scene(const RunArguments& arguments, RunOptions& options) {
  const auto scene = std::make_shared<const Scene>(load_scene(arguments.scenario));
  options.scene = SceneSource{arguments.scenario, scene};
  if (!arguments.every) options.output_every = scene->output_every;
  if (!arguments.vtk) options.write_motion = scene->output_vtk;
  if (!arguments.out && scene->output_directory) options.output_dir = *scene->output_directory;
  const StepperInfo& stepper = find_stepper(arguments.stepper.value_or(scene->run.stepper));
  for (const std::string& assignment : arguments.assignments) {
    const std::string key = assignment.substr(0, assignment.find('='));
    const bool declared = std::any_of(stepper.parameters.begin(), stepper.parameters.end(),
                                      [&](const SchemeParameter& p) { return p.name == key; });
    if (!declared || key.size() == assignment.size())
      throw std::invalid_argument("--set " + assignment + ": a scene file has no parameters to set; edit " +
                                  arguments.scenario + " (--set takes only the stepper's parameters here)");
    if (!options.scheme_parameters.emplace(key, parse_number("--set " + key, assignment.substr(key.size() + 1))).second)
      throw std::invalid_argument("--set " + key + " is given twice; give each parameter once");
  }
}

}  // namespace

RunOptions to_run_options(const RunArguments& arguments) {
  RunOptions options;
  if (!is_scene_file_name(arguments.scenario)) options.scenario = arguments.scenario;
  options.stepper = arguments.stepper;
  if (arguments.h) options.h = parse_number("--h", *arguments.h);
  if (arguments.t_end) options.t_end = parse_number("--t", *arguments.t_end);
  if (arguments.max_steps) options.max_steps = parse_positive_count("--max-steps", *arguments.max_steps);
  if (arguments.solver) options.solver = parse_solver(*arguments.solver);
  apply_newton_arguments(arguments, options);
  if (arguments.refine_depth) options.max_refinement_depth = parse_count_in("--refine-depth", *arguments.refine_depth, 0, 30);
  if (arguments.redundant) {
    if (*arguments.redundant != "drop" && *arguments.redundant != "refuse")
      throw std::invalid_argument("--redundant expects drop or refuse, got '" + *arguments.redundant + "'");
    options.redundancy = *arguments.redundant == "drop" ? RunConfiguration::Redundancy::drop
                                                        : RunConfiguration::Redundancy::refuse;
  }
  if (arguments.threads) options.threads = parse_positive_count("--threads", *arguments.threads);
  if (arguments.every) options.output_every = parse_positive_count("--every", *arguments.every);
  if (arguments.out) options.output_dir = *arguments.out;
  if (arguments.vtk) {
    if (*arguments.vtk != "on" && *arguments.vtk != "off")
      throw std::invalid_argument("--vtk expects on or off, got '" + *arguments.vtk + "'");
    options.write_motion = *arguments.vtk == "on";
  }
  if (arguments.checkpoint_every)
    options.checkpoint_every = parse_positive_count("--checkpoint-every", *arguments.checkpoint_every);
  if (is_scene_file_name(arguments.scenario)) {
    apply_scene(arguments, options);
    return options;
  }
  const StepperInfo& stepper = find_stepper(arguments.stepper.value_or(RunConfiguration{}.stepper));
  const Scenario& scenario = find_scenario(arguments.scenario);
  for (const std::string& assignment : arguments.assignments) {
    const std::optional<std::pair<std::string, double>> scheme = parse_scheme_assignment(stepper, scenario, assignment);
    const auto [key, value] = scheme ? *scheme : parse_assignment(scenario, assignment);
    ParameterValues& values = scheme ? options.scheme_parameters : options.overrides;
    if (!values.emplace(key, value).second)
      throw std::invalid_argument("--set " + key + " is given twice; give each parameter once");
  }
  return options;
}

}  // namespace noether
