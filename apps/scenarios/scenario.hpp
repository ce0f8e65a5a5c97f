#pragma once
/// Named, parametrized mechanisms that the command-line program and the tests run.
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <noether/apps/scenarios/conserved_momenta.hpp>
#include <noether/engine/system.hpp>
#include <noether/steppers/stepper.hpp>

namespace noether {

/// A scalar parameter with its default; `--set name=value` overrides it.
struct ScenarioParameter {
  std::string name;
  double default_value = 0.0;
  std::string description;
  /// Names of the values 0, 1, ... for a choice parameter (`--set joint=revolute`); empty for a number.
  std::vector<std::string> choices = {};
};

/// A point of interest written to the time series as NAME.x, NAME.y (, NAME.z).
struct Probe {
  std::string name;
  Index dimension = 2;
  std::function<Vector(const State&)> position;
};

/// A quantity the model's symmetries keep (a momentum map): the runner reports its largest change
/// over the run, max_n max_i |I_i(state_n) - I_i(state_0)| (summary `invariant_drifts`).
struct Invariant {
  std::string name;
  std::function<Vector(const State&)> value;
};

/// What a scenario builds: the system, a consistent initial state (q, v at t = 0), probes and
/// the invariants to monitor.
struct Model {
  std::shared_ptr<System> system;  ///< shared: a stepper made on it shares the ownership
  State initial;
  std::vector<Probe> probes;
  std::vector<Invariant> invariants = {};
  /// The momentum components the model's symmetries keep, reported by the run (none by default).
  ConservedMomenta conserved_momenta = {};
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
  /// Builds the model from a complete set of values (defaults merged with overrides).
  std::function<Model(const ParameterValues&)> build;
};

/// All scenarios, in the order `noether list` prints them.
std::span<const Scenario> scenarios();
/// Throws std::invalid_argument naming the scenario and listing the known ones.
const Scenario& find_scenario(const std::string& name);
/// Defaults of `scenario` with `overrides` applied; throws std::invalid_argument for a key the
/// scenario does not have (naming it and the accepted keys) or a non-finite value.
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

}  // namespace noether
