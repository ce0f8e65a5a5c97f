/// A particle in a double-well potential [EnergyPreservingForcedVI, Sec. 5]:
/// L = 1/2 m q'^2 - a (q^2 - 1)^2, wells at q = -1 and 1, barrier a at q = 0.
/// The default orbit stays in the right well and nears the barrier (energy 0.83 a, turning points
/// 0.3 and 1.38): sem-vi's step equations have no solution along an orbit over the barrier
/// (steppers/sem_vi.hpp, docs/sem_vi.md); --set q0=0 --set v0=1.5 gives one (both wells).
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
          "EnergyPreservingForcedVI: particle in the double well a (q^2 - 1)^2, an orbit in one well up to near the "
          "barrier (q0 = 0, v0 = 1.5: over it, both wells)",
          {.h = 0.05, .t_end = 20.0},
          {{"m", 1.0, "mass", {}, ParameterRange::positive()},
           {"a", 1.0, "barrier height (wells at q = -1, 1)", {}, ParameterRange::positive()},
           {"q0", 0.3, "initial position (our choice: a turning point near the barrier; energy 0.83 a)"},
           {"v0", 0.0, "initial velocity (our choice; q0 = 0, v0 = 1.5 gives energy 2.125 a > a: both wells)"}},
          describe};
}

}  // namespace noether
