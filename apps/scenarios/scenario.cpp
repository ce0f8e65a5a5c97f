#include <noether/apps/scenarios/scenario.hpp>

#include <charconv>
#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {

std::span<const Scenario> scenarios() {
  static const std::vector<Scenario> all{singular_mass_spring_scenario(), spring_pendulum_scenario(),
                                         double_pendulum_scenario(),  constrained_particles_scenario(), double_well_scenario(), damped_oscillator_scenario(),  top_scenario(),
                                         double_fourbar_scenario(),   rod_chain3d_scenario(),
                                         chain2d_scenario(),          chain3d_scenario(),
                                         nfourbar_scenario(),         grid2d_scenario(),
                                         bricard_scenario()};
  return all;
}

const Scenario& find_scenario(const std::string& name) {
  std::string known;
  for (const Scenario& s : scenarios()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw std::invalid_argument("unknown scenario '" + name + "'; known scenarios: " + known);
}

ParameterValues resolve_parameters(const Scenario& scenario, const ParameterValues& overrides) {
  ParameterValues values;
  for (const ScenarioParameter& p : scenario.parameters) values[p.name] = p.default_value;
  for (const auto& [key, value] : overrides) {
    if (!values.contains(key)) {
      std::string known;
      for (const ScenarioParameter& p : scenario.parameters) known += (known.empty() ? "" : ", ") + p.name;
      throw std::invalid_argument("scenario '" + scenario.name + "' has no parameter '" + key + "'; it accepts: " + known);
    }
    if (!std::isfinite(value))
      throw std::invalid_argument("parameter '" + key + "' must be a finite number, got " + format_number(value));
    values[key] = value;
  }
  return values;
}

double parse_parameter_value(const Scenario& scenario, const std::string& key, const std::string& text) {
  std::string accepted = "a number (e.g. 0.01 or 1e-3)";
  for (const ScenarioParameter& p : scenario.parameters) {
    if (p.name != key || p.choices.empty()) continue;
    accepted = "one of";
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
      if (p.choices[i] == text) return static_cast<double>(i);
      accepted += (i == 0 ? " " : ", ") + p.choices[i];
    }
  }
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    throw std::invalid_argument("--set " + key + " expects " + accepted + ", got '" + text + "'");
  return value;
}

}  // namespace noether
