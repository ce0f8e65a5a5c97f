/// A particle in a double-well potential [EnergyPreservingForcedVI, Sec. 5]:
/// L = 1/2 m q'^2 - a (q^2 - 1)^2, wells at q = -1 and 1, barrier a at q = 0.
#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

ModelDescription describe(const ParameterValues& p) {
  const double a = p.at("a");
  ModelDescription d;
  d.bodies = {CoordinatesDescription{"particle", {"q"}, Vector::Constant(1, p.at("q0")), Vector::Constant(1, p.at("v0"))}};
  d.inertias = {{"mass", {"particle"}, Matrix::Constant(1, 1, p.at("m"))}};
  d.forces = {PolynomialPotentialDescription{"double-well", "particle", "q", 0.0, {a, 0.0, -2.0 * a, 0.0, a}}};
  return d;
}

}  // namespace

Scenario double_well_scenario() {
  return {"double-well",
          "EnergyPreservingForcedVI: particle in the double well a (q^2 - 1)^2, energy above the barrier (both wells)",
          {.h = 0.05, .t_end = 20.0},
          {{"m", 1.0, "mass", {}, ParameterRange::positive()},
           {"a", 1.0, "barrier height (wells at q = -1, 1)", {}, ParameterRange::positive()},
           {"q0", 0.0, "initial position (our choice: on the barrier)"},
           {"v0", 1.5, "initial velocity (our choice: energy 1.125 > a, so the particle visits both wells)"}},
          describe};
}

}  // namespace noether
