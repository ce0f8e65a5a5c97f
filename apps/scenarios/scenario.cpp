#include <noether/apps/scenarios/scenario.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {

bool ParameterRange::contains(double value) const {
  if (!std::isfinite(value)) return false;
  if (whole && value != std::floor(value)) return false;
  const bool above = low_open ? value > low : value >= low;
  const bool below = high_open ? value < high : value <= high;
  return above && below && !subnormal_magnitude(value);
}

bool ParameterRange::subnormal_magnitude(double value) const {
  return low == 0.0 && !whole && value > 0.0 && is_subnormal(value);
}

std::string ParameterRange::refusal(double value) const {
  if (contains(value)) return "";
  if (!subnormal_magnitude(value)) return "must be " + describe() + ", got " + format_exact(value);
  return subnormal_refusal(value, !low_open);
}

std::string ParameterRange::describe() const {
  const bool bounded_below = std::isfinite(low), bounded_above = std::isfinite(high);
  const auto whole_text = [](double x) { return std::to_string(static_cast<long long>(x)); };
  if (whole) return "a whole number from " + whole_text(low) + " to " + whole_text(high);
  if (bounded_below && bounded_above)
    return std::string("in ") + (low_open ? "(" : "[") + format_exact(low) + ", " + format_exact(high) +
           (high_open ? ")" : "]");
  if (bounded_below) return (low_open ? "> " : ">= ") + format_exact(low);
  if (bounded_above) return (high_open ? "< " : "<= ") + format_exact(high);
  return "a finite number";
}

std::string ScenarioParameter::describe_values() const {
  if (choices.empty()) return range.describe();
  std::string text = "one of";
  for (std::size_t i = 0; i < choices.size(); ++i) text += (i == 0 ? " " : ", ") + choices[i];
  return text;
}

std::string ScenarioParameter::refusal(double value) const {
  if (choices.empty() || range.contains(value)) return range.refusal(value);
  return "must be " + describe_values() + ", got " + format_exact(value);
}

Model Scenario::build(const ParameterValues& values) const { return build_model(describe(values)); }

std::span<const Scenario> scenarios() {
  static const std::vector<Scenario> all{singular_mass_spring_scenario(), spring_pendulum_scenario(),
                                         double_pendulum_scenario(),  constrained_particles_scenario(), double_well_scenario(), damped_oscillator_scenario(),  top_scenario(),
                                         double_fourbar_scenario(),   rod_chain3d_scenario(),
                                         chain2d_scenario(),          chain3d_scenario(),
                                         nfourbar_scenario(),         grid2d_scenario(),
                                         bricard_scenario(),          slider_crank_scenario(),
                                         robot_arm_scenario()};
  return all;
}

const Scenario& find_scenario(const std::string& name) {
  std::string known;
  for (const Scenario& s : scenarios()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw std::invalid_argument("unknown scenario " + quote(name) + "; known scenarios: " + known);
}

ParameterValues resolve_parameters(const Scenario& scenario, const ParameterValues& overrides) {
  ParameterValues values;
  for (const ScenarioParameter& p : scenario.parameters) values[p.name] = p.default_value;
  for (const auto& [key, value] : overrides) {
    if (!values.contains(key)) {
      std::string known;
      for (const ScenarioParameter& p : scenario.parameters) known += (known.empty() ? "" : ", ") + p.name;
      throw std::invalid_argument("scenario " + quote(scenario.name) + " has no parameter " + quote(key) + "; it accepts: " + known);
    }
    values[key] = value;
  }
  for (const ScenarioParameter& p : scenario.parameters)
    if (const std::string refusal = p.refusal(values.at(p.name)); !refusal.empty())
      throw std::invalid_argument("scenario " + quote(scenario.name) + ": parameter " + quote(p.name) + " " + refusal);
  return values;
}

double parse_parameter_value(const Scenario& scenario, const std::string& key, const std::string& text) {
  std::string accepted = "a number (e.g. 0.01 or 1e-3)";
  for (const ScenarioParameter& p : scenario.parameters) {
    if (p.name != key || p.choices.empty()) continue;
    const auto choice = std::find(p.choices.begin(), p.choices.end(), text);
    if (choice != p.choices.end()) return static_cast<double>(choice - p.choices.begin());
    accepted = p.describe_values();
  }
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    throw std::invalid_argument("--set " + key + " expects " + accepted + ", got " + quote(text));
  return value;
}

}  // namespace noether
