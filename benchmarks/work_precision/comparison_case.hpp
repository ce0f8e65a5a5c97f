#pragma once
/// A mechanism and size that both engines integrate: the scenario `chain2d`, `chain3d` (spherical
/// joints) or `nfourbar` with its default parameters and n bars (nfourbar: n cells, 2n + 1 bars).
#include <string>
#include <string_view>

#include <Eigen/Core>

#include <noether/apps/scenarios/scenario.hpp>

#include "simbody_mechanism.hpp"

namespace noether::work_precision {

struct ComparisonCase {
  MechanismKind mechanism = MechanismKind::chain2d;
  Index n = 0;
  /// The scenario's parameters (defaults, n set): the Simbody model reads the same values.
  ParameterValues parameters;
  double t_end = 1.0;  ///< the scenarios' default end time

  /// "chain2d", "chain3d" or "nfourbar": the scenario's name.
  std::string_view mechanism_name() const;
  /// The probe whose error at t_end is measured: "tip" on the chains, "B0" on nfourbar.
  std::string_view probe_name() const;
  /// What the Simbody model is built from: the scenario's parameters and the generators' bars.
  MechanismSpec simbody_spec() const;
};

/// "MECHANISM:N" (e.g. "chain2d:100") as a case; throws std::invalid_argument naming the text and
/// what is accepted.
ComparisonCase parse_case(std::string_view text);

/// Noether's model of the case, from the scenario registry (the same as `noether run MECHANISM --set n=N`).
Model build_noether_model(const ComparisonCase& c);

/// The probe of `model` at `state` as a 3-vector (z = 0 for the planar mechanisms).
Eigen::Vector3d probe_position(const Model& model, const State& state);

}  // namespace noether::work_precision
