#include <noether/apps/cli_arguments.hpp>

#include <charconv>
#include <stdexcept>

namespace noether {

double parse_number(const std::string& what, const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    throw std::invalid_argument(what + " expects a number (e.g. 0.01 or 1e-3), got '" + text + "'");
  return value;
}

int parse_positive_count(const std::string& what, const std::string& text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || value < 1)
    throw std::invalid_argument(what + " expects a whole number >= 1, got '" + text + "'");
  return value;
}

std::pair<std::string, double> parse_assignment(const Scenario& scenario, const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("--set expects key=value (e.g. --set m1=2.5), got '" + text + "'");
  const std::string key = text.substr(0, equals);
  return {key, parse_parameter_value(scenario, key, text.substr(equals + 1))};
}

LinearSolverKind parse_solver(const std::string& text) {
  if (const std::optional<LinearSolverKind> kind = parse_linear_solver_kind(text)) return *kind;
  throw std::invalid_argument("unknown solver '" + text + "'; accepted: klu, umfpack, cholmod, eigen");
}

RunOptions to_run_options(const RunArguments& arguments) {
  RunOptions options;
  options.scenario = arguments.scenario;
  options.stepper = arguments.stepper;
  if (arguments.h) options.h = parse_number("--h", *arguments.h);
  if (arguments.t_end) options.t_end = parse_number("--t", *arguments.t_end);
  if (arguments.solver) options.solver = parse_solver(*arguments.solver);
  if (arguments.threads) options.threads = parse_positive_count("--threads", *arguments.threads);
  if (arguments.every) options.output_every = parse_positive_count("--every", *arguments.every);
  if (arguments.out) options.output_dir = *arguments.out;
  for (const std::string& assignment : arguments.assignments) {
    const auto [key, value] = parse_assignment(find_scenario(arguments.scenario), assignment);
    if (!options.overrides.emplace(key, value).second)
      throw std::invalid_argument("--set " + key + " is given twice; give each parameter once");
  }
  return options;
}

}  // namespace noether
