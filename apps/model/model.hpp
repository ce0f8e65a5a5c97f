#pragma once
/// What a run integrates: a system, its initial state, the points it reports and the quantities it
/// monitors. Built from a ModelDescription (model_builder.hpp).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <noether/apps/model/conserved_momenta.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>

namespace noether {

/// A point of interest written to the time series as NAME.x, NAME.y (, NAME.z); a probe of dimension
/// 1 writes NAME.x only.
struct Probe {
  std::string name;
  Index dimension = 2;
  std::function<Vector(const State&)> position;
  /// The run also reports its largest magnitude over the states reached, max_n max_i |value_i|
  /// (summary `probe_maxima`): an actuator's torque and tracking error.
  bool summarized = false;
};

/// A quantity the model's symmetries keep (a momentum map): the runner reports its largest change
/// over the run, max_n max_i |I_i(state_n) - I_i(state_0)| (summary `invariant_drifts`).
struct Invariant {
  std::string name;
  std::function<Vector(const State&)> value;
};

/// The system, an initial state (q, v at t = 0), probes and the invariants to monitor.
struct Model {
  std::shared_ptr<System> system;  ///< shared: a stepper made on it shares the ownership
  State initial;
  std::vector<Probe> probes;
  std::vector<Invariant> invariants = {};
  /// The momentum components the model's symmetries keep, reported by the run (none by default).
  ConservedMomenta conserved_momenta = {};
};

}  // namespace noether
