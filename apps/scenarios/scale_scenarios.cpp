/// The scaling scenarios of issue 4: thin wrappers around apps/mechanisms/generators.hpp.
#include <cmath>
#include <stdexcept>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/apps/scenarios/body_probe.hpp>
#include <noether/engine/format.hpp>

namespace noether {
namespace {

/// A positive whole number from a parameter value, or std::invalid_argument naming it.
Index count_parameter(const ParameterValues& p, const std::string& key) {
  const double value = p.at(key);
  if (!(value >= 1 && value <= 1e8) || value != std::floor(value))
    throw std::invalid_argument("parameter '" + key + "' must be a whole number from 1 to 100000000, got " +
                                format_number(value));
  return static_cast<Index>(value);
}

/// count_parameter(p, key), once the mechanism of `bars` bars (a function of it) of
/// `bytes_per_bar` is known to fit in memory (apps/mechanisms/memory_budget.hpp).
template <class Bars>
Index size_that_fits(const ParameterValues& p, const std::string& scenario, const std::string& key, Bars&& bars,
                     double bytes_per_bar) {
  const Index size = count_parameter(p, key);
  require_memory_for_bars(bars(static_cast<double>(size)), bytes_per_bar,
                          "scenario '" + scenario + "' with " + key + " = " + std::to_string(size));
  return size;
}

double chain_bars(double n) { return n; }
double nfourbar_bars(double n) { return bar_lattice_size(n, 1.0); }
double grid_bars(double k) { return bar_lattice_size(k, k); }

Model model_of(Mechanism mechanism, std::vector<Probe> probes = {}) {
  Model model;
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  model.probes = std::move(probes);
  return model;
}

/// Every scaling scenario runs 100 steps of 0.01 by default.
constexpr ScenarioRunDefaults scale_run_defaults{.h = 0.01, .t_end = 1.0};

Model build_lattice(Index columns, Index rows, const ParameterValues& p) {
  Mechanism mechanism = make_bar_lattice(columns, rows, p.at("top_speed"));
  const BodyRef first = mechanism.bodies()[0];
  Model model = model_of(std::move(mechanism));
  model.probes.push_back(body_point_probe("B0", *model.system, first, Vector(Eigen::Vector2d(0.5, 0.0))));
  return model;
}

}  // namespace

Scenario chain2d_scenario() {
  return {"chain2d", "planar chain of n bars on revolute joints, pinned to the ground, released horizontally",
          scale_run_defaults, {{"n", 10, "number of bars (1 kg, 1 m each)"}}, [](const ParameterValues& p) {
            Mechanism m = make_chain2d(size_that_fits(p, "chain2d", "n", chain_bars, kPlanarBarPeakBytes));
            const BodyRef last = m.bodies().back();
            Model model = model_of(std::move(m));
            model.probes.push_back(body_point_probe("tip", *model.system, last, Vector(Eigen::Vector2d(0.5, 0.0))));
            return model;
          }};
}

Scenario chain3d_scenario() {
  const std::vector<ScenarioParameter> parameters{
      {"n", 10, "number of bars (1 kg, 1 m each)"},
      {"joint", 0, "joint type", {"spherical", "revolute"}},
      {"tip_speed", 0.1, "initial out-of-plane speed of the free tip (m/s)"}};
  return {"chain3d", "3D chain of n rigid bars on spherical (or --set joint=revolute) joints, released horizontally",
          scale_run_defaults, parameters, [](const ParameterValues& p) {
            const ChainJoint joint = p.at("joint") == 0 ? ChainJoint::spherical : ChainJoint::revolute;
            if (p.at("joint") != 0 && p.at("joint") != 1)
              throw std::invalid_argument("parameter 'joint' must be spherical or revolute");
            Mechanism m =
                make_chain3d(size_that_fits(p, "chain3d", "n", chain_bars, k3dBarPeakBytes), joint, p.at("tip_speed"));
            const BodyRef last = m.bodies().back();
            Model model = model_of(std::move(m));
            model.probes.push_back(body_point_probe("tip", *model.system, last, Vector(Eigen::Vector3d(0.5, 0, 0))));
            // Spherical joints, the pivot at the origin, gravity along -z: J_z about the origin is kept.
            model.conserved_momenta.angular[2] = joint == ChainJoint::spherical;
            return model;
          }};
}

Scenario nfourbar_scenario() {
  const std::vector<ScenarioParameter> parameters{
      {"n", 10, "number of square cells (2n+1 bars)"},
      {"top_speed", 1.0, "initial speed of B0, the top of the first crank, in +x"}};
  return {"nfourbar", "IFToMM N-four-bar: n cells, cranks hinged 1 m apart, singular every half turn",
          scale_run_defaults, parameters, [](const ParameterValues& p) {
            return build_lattice(size_that_fits(p, "nfourbar", "n", nfourbar_bars, kPlanarBarPeakBytes), 1, p);
          }};
}

Scenario grid2d_scenario() {
  const std::vector<ScenarioParameter> parameters{
      {"k", 10, "cells per side of the k x k grid"},
      {"top_speed", 1.0, "initial shear speed of the first row's tops in +x"}};
  return {"grid2d", "planar k x k grid of bars joined at their ends (many closed loops)", scale_run_defaults,
          parameters, [](const ParameterValues& p) {
            const Index k = size_that_fits(p, "grid2d", "k", grid_bars, kLatticeBarPeakBytes);
            return build_lattice(k, k, p);
          }};
}

}  // namespace noether
