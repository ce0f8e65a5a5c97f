#include "apps/scenarios/scenario.hpp"

#include <cmath>
#include <stdexcept>

namespace noether {

std::span<const Scenario> scenarios() {
  static const std::vector<Scenario> all{singular_mass_spring_scenario(), spring_pendulum_scenario(),
                                         double_pendulum_scenario(),       top_scenario(),
                                         double_fourbar_scenario(),        rod_chain3d_scenario()};
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
      throw std::invalid_argument("parameter '" + key + "' must be a finite number, got " + std::to_string(value));
    values[key] = value;
  }
  return values;
}

}  // namespace noether
