/// The damped harmonic oscillator [EnergyPreservingForcedVI, Sec. 5]: L = 1/2 m q'^2 - 1/2 k q^2
/// with the viscous force F = -c q', c = 2 zeta sqrt(k m) (ConstantDamping). The probe `exact` is the closed form
///   q(t) = exp(-zeta w t) (q0 cos(w_d t) + (v0 + zeta w q0)/w_d sin(w_d t)),  w = sqrt(k/m),
///   w_d = w sqrt(1 - zeta^2),
/// for |zeta| < 1 (negative zeta: an amplified oscillation).
#include <cmath>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

ModelDescription describe(const ParameterValues& p) {
  const double m = p.at("m"), k = p.at("k"), zeta = p.at("zeta"), q0 = p.at("q0"), v0 = p.at("v0");
  ModelDescription d;
  d.bodies = {CoordinatesDescription{"mass", {"q"}, Vector::Constant(1, q0), Vector::Constant(1, v0)}};
  d.inertias = {{"mass.inertia", {"mass"}, Matrix::Constant(1, 1, m)}};
  d.forces = {PolynomialPotentialDescription{"spring", "mass", "q", 0.0, {0.0, 0.0, 0.5 * k}}};
  const double c = 2 * zeta * std::sqrt(k * m);
  if (c != 0.0) d.forces.push_back(DampingMatrixDescription{"damper", {"mass"}, Matrix::Constant(1, 1, c)});
  const double w = std::sqrt(k / m), w_d = w * std::sqrt(1 - zeta * zeta);
  d.probes = {ProfileProbeDescription{"exact", DampedHarmonicProfile{zeta * w, w_d, q0, (v0 + zeta * w * q0) / w_d}}};
  return d;
}

}  // namespace

Scenario damped_oscillator_scenario() {
  return {"damped-oscillator",
          "EnergyPreservingForcedVI: damped harmonic oscillator, c = 2 zeta sqrt(k m) (zeta < 0: amplified); probe "
          "exact = closed form",
          {.h = 0.05, .t_end = 20.0},
          {{"m", 1.0, "mass", {}, ParameterRange::positive()},
           {"k", 1.0, "spring stiffness", {}, ParameterRange::positive()},
           {"zeta", 0.05, "damping ratio (an oscillation; our choices in docs: 0.01, 0.05, 0.1 and -0.05)", {},
            ParameterRange::between(-1.0, 1.0)},
           {"q0", 1.0, "initial position"},
           {"v0", 0.0, "initial velocity"}},
          describe};
}

}  // namespace noether
