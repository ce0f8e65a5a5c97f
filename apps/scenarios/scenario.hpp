#pragma once
/// Named, parametrized mechanisms that the command-line program and the tests run.
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <noether/apps/model/model.hpp>
#include <noether/apps/model/model_description.hpp>

namespace noether {

class DescriptionSink;  // apps/model/description_sink.hpp

/// The values a scenario parameter accepts: an interval of the reals (bounds open or closed,
/// infinite by default), or whole numbers in it.
struct ParameterRange {
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
  bool low_open = false, high_open = false;
  bool whole = false;

  /// Any finite number.
  static ParameterRange any() { return {}; }
  /// > 0: lengths, masses, stiffnesses, densities.
  static ParameterRange positive() { return {.low = 0.0, .low_open = true}; }
  /// >= 0: damping coefficients, optional stiffnesses.
  static ParameterRange nonnegative() { return {.low = 0.0}; }
  /// (low, high), both open.
  static ParameterRange between(double low, double high) { return {low, high, true, true}; }
  /// Whole numbers from low to high.
  static ParameterRange count(double low, double high) { return {.low = low, .high = high, .whole = true}; }

  /// Whether value is accepted: finite, in the interval (whole if asked), and, when the interval
  /// starts at 0 (a magnitude: a mass, inertia, length, stiffness, damping, tolerance), 0 or a
  /// normal number: a subnormal magnitude (below 2.2250738585072014e-308) keeps few significant
  /// digits, and the products and inverses the equations take of it underflow or overflow.
  bool contains(double value) const;
  /// "> 0", ">= 0", "in (-1, 1)", "a whole number from 1 to 100000", "a finite number".
  std::string describe() const;
  /// Why value is not accepted: "must be > 0, got -1", or for a subnormal magnitude "must be a
  /// normal number, at least 2.2250738585072014e-308 (or 0), got 1e-320"; empty when contains(value).
  std::string refusal(double value) const;
  /// Whether value is a subnormal magnitude, which the interval holds but contains() refuses.
  bool subnormal_magnitude(double value) const;
};

/// A scalar parameter with its default; `--set name=value` overrides it.
struct ScenarioParameter {
  std::string name;
  double default_value = 0.0;
  std::string description;
  /// Names of the values 0, 1, ... for a choice parameter (`--set joint=revolute`); empty for a number.
  std::vector<std::string> choices = {};
  ParameterRange range = ParameterRange::any();

  /// What it accepts, as docs/scenarios.md's range column says it: "one of spherical, revolute"
  /// for a choice parameter, range.describe() for a number.
  std::string describe_values() const;
  /// Why value is not accepted, naming what is (describe_values(): the choices' names, not the
  /// numbers that stand for them); empty when range.contains(value).
  std::string refusal(double value) const;
};

using ParameterValues = std::map<std::string, double>;

/// The run a scenario is made for; the run driver (apps/run_configuration.hpp) starts from it.
struct ScenarioRunDefaults {
  double h = 0.0;      ///< time step (> 0)
  double t_end = 0.0;  ///< end time (>= 0)
};

struct Scenario {
  std::string name;
  std::string description;
  ScenarioRunDefaults run_defaults;
  /// The physical and initial-value parameters the scenario accepts (`--set`); the run settings
  /// (h, t_end, Newton) are not among them.
  std::vector<ScenarioParameter> parameters;
  /// The mechanism for a complete set of values (defaults merged with overrides, in range).
  std::function<ModelDescription(const ParameterValues&)> describe;
  /// For a generated mechanism, the same one given item by item to a sink
  /// (apps/model/description_sink.hpp): describe is described() of it, and a run over parts
  /// describes each process's part alone. Empty for the scenarios that have describe alone.
  std::function<void(const ParameterValues&, DescriptionSink&)> generate = {};

  /// build_model(describe(values)): the one path from a description to a Model.
  Model build(const ParameterValues& values) const;
};

/// All scenarios, in the order `noether list` prints them.
std::span<const Scenario> scenarios();
/// Throws std::invalid_argument naming the scenario and listing the known ones.
const Scenario& find_scenario(const std::string& name);
/// Defaults of `scenario` with `overrides` applied; throws std::invalid_argument for a key the
/// scenario does not have (naming it and the accepted keys) or a value outside the parameter's
/// range (naming the parameter, what it is, the value and the range), before anything is built.
ParameterValues resolve_parameters(const Scenario& scenario, const ParameterValues& overrides);

/// The value of `--set key=text`: a number, or for a choice parameter one of its names (its
/// index). Throws std::invalid_argument naming the key, the text and what is accepted. Whether the
/// key exists is checked by resolve_parameters.
double parse_parameter_value(const Scenario& scenario, const std::string& key, const std::string& text);

/// The individual scenario definitions (one file each).
Scenario singular_mass_spring_scenario();
Scenario spring_pendulum_scenario();
Scenario double_pendulum_scenario();
Scenario constrained_particles_scenario();
Scenario double_well_scenario();
Scenario damped_oscillator_scenario();
Scenario top_scenario();
Scenario double_fourbar_scenario();
Scenario rod_chain3d_scenario();
Scenario chain2d_scenario();
Scenario chain3d_scenario();
Scenario nfourbar_scenario();
Scenario grid2d_scenario();
Scenario bricard_scenario();
Scenario slider_crank_scenario();
Scenario robot_arm_scenario();

}  // namespace noether
