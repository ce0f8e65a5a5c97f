/// The scaling scenarios (the step-cost suite, docs/performance.md): thin wrappers around
/// apps/mechanisms/generators.hpp.
#include <cmath>
#include <stdexcept>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// The size parameter (whole, 1 to 1e8 by its range), once the mechanism of `bars` bars (a function of it) of
/// `bytes_per_bar` is known to fit in memory (apps/mechanisms/memory_budget.hpp).
template <class Bars>
Index size_that_fits(const ParameterValues& p, const std::string& scenario, const std::string& key, Bars&& bars,
                     double bytes_per_bar) {
  const auto size = static_cast<Index>(p.at(key));
  require_memory_for_bars(bars(static_cast<double>(size)), bytes_per_bar,
                          "scenario " + quote(scenario) + " with " + key + " = " + std::to_string(size));
  return size;
}

double chain_bars(double n) { return n; }
double nfourbar_bars(double n) { return bar_lattice_size(n, 1.0); }
double grid_bars(double k) { return bar_lattice_size(k, k); }

/// Every scaling scenario runs 100 steps of 0.01 by default.
constexpr ScenarioRunDefaults scale_run_defaults{.h = 0.01, .t_end = 1.0};

/// The size parameter of a scaling scenario.
ScenarioParameter size_parameter(std::string name, double default_value, std::string description) {
  return {std::move(name), default_value, std::move(description), {}, ParameterRange::count(1, 1e8)};
}

using Generate = std::function<void(const ParameterValues&, DescriptionSink&)>;

/// A scaling scenario of `generate`, its description the generator's whole.
Scenario generated(std::string name, std::string description, std::vector<ScenarioParameter> parameters, Generate generate) {
  auto describe = [generate](const ParameterValues& p) { return described([&](DescriptionSink& sink) { generate(p, sink); }); };
  return {std::move(name), std::move(description), scale_run_defaults, std::move(parameters), std::move(describe),
          std::move(generate)};
}

/// The probe `name` on the end X = (l/2, 0[, 0]) of body `body`.
void add_probe(DescriptionSink& sink, std::string name, std::string body, Index dimension) {
  Vector X = Vector::Zero(dimension);
  X(0) = 0.5;
  sink.model_wide().probes.push_back(PointProbeDescription{std::move(name), std::move(body), X});
}

void lattice(Index columns, Index rows, const ParameterValues& p, DescriptionSink& sink) {
  generate_bar_lattice(columns, rows, p.at("top_speed"), {}, sink);
  add_probe(sink, "B0", "v0_1", 2);
}

}  // namespace

Scenario chain2d_scenario() {
  return generated("chain2d", "planar chain of n bars on revolute joints, pinned to the ground, released horizontally",
                   {size_parameter("n", 10, "number of bars (1 kg, 1 m each)")},
                   [](const ParameterValues& p, DescriptionSink& sink) {
                     const Index n = size_that_fits(p, "chain2d", "n", chain_bars, kPlanarBarPeakBytes);
                     generate_chain2d(n, {}, sink);
                     add_probe(sink, "tip", "bar" + std::to_string(n - 1), 2);
                   });
}

Scenario chain3d_scenario() {
  const std::vector<ScenarioParameter> parameters{
      size_parameter("n", 10, "number of bars (1 kg, 1 m each)"),
      {"joint", 0, "joint type", {"spherical", "revolute"}, ParameterRange::count(0, 1)},
      {"tip_speed", 0.1, "initial out-of-plane speed of the free tip (m/s)"}};
  return generated("chain3d", "3D chain of n rigid bars on spherical (or --set joint=revolute) joints, released horizontally",
                   parameters, [](const ParameterValues& p, DescriptionSink& sink) {
                     const ChainJoint joint = p.at("joint") == 0 ? ChainJoint::spherical : ChainJoint::revolute;
                     const Index n = size_that_fits(p, "chain3d", "n", chain_bars, k3dBarPeakBytes);
                     generate_chain3d(n, joint, p.at("tip_speed"), {}, sink);
                     add_probe(sink, "tip", "bar" + std::to_string(n - 1), 3);
                     // Spherical joints, the pivot at the origin, gravity along -z: J_z about the origin is kept.
                     sink.model_wide().conserved_momenta.angular[2] = joint == ChainJoint::spherical;
                   });
}

Scenario nfourbar_scenario() {
  const std::vector<ScenarioParameter> parameters{
      size_parameter("n", 10, "number of square cells (2n+1 bars)"),
      {"top_speed", 1.0, "initial speed of B0, the top of the first crank, in +x"}};
  return generated("nfourbar", "IFToMM N-four-bar: n cells, cranks hinged 1 m apart, singular every half turn", parameters,
                   [](const ParameterValues& p, DescriptionSink& sink) {
                     lattice(size_that_fits(p, "nfourbar", "n", nfourbar_bars, kPlanarBarPeakBytes), 1, p, sink);
                   });
}

Scenario grid2d_scenario() {
  const std::vector<ScenarioParameter> parameters{
      size_parameter("k", 10, "cells per side of the k x k grid"),
      {"top_speed", 1.0, "initial shear speed of the first row's tops in +x"}};
  return generated("grid2d", "planar k x k grid of bars joined at their ends (many closed loops)", parameters,
                   [](const ParameterValues& p, DescriptionSink& sink) {
                     const Index k = size_that_fits(p, "grid2d", "k", grid_bars, kLatticeBarPeakBytes);
                     lattice(k, k, p, sink);
                   });
}

}  // namespace noether
