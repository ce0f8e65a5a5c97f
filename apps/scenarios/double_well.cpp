/// A particle in a double-well potential [EnergyPreservingForcedVI, Sec. 5]:
/// L = 1/2 m q'^2 - a (q^2 - 1)^2, wells at q = -1 and 1, barrier a at q = 0.
/// The default orbit stays in the right well and nears the barrier (energy 0.83 a, turning points
/// 0.3 and 1.38): sem-vi's step equations have no solution along an orbit over the barrier
/// (steppers/sem_vi.hpp, docs/sem_vi.md); --set q0=0 --set v0=1.5 gives one (both wells).
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_potential.hpp>

namespace noether {
namespace {

Model build(const ParameterValues& p) {
  const double m = p.at("m"), a = p.at("a");
  auto system = std::make_unique<System>();
  const BlockId particle = system->add_block("particle", {"q"});
  system->add(std::make_shared<ConstantInertia>("mass", std::vector{particle}, Matrix(m * Matrix::Identity(1, 1))));
  PotentialFunction well;
  well.energy = [a](ConstVectorRef q) { return a * (q(0) * q(0) - 1) * (q(0) * q(0) - 1); };
  well.gradient = [a](ConstVectorRef q) { return Vector(Vector::Constant(1, 4 * a * q(0) * (q(0) * q(0) - 1))); };
  well.hessian = [a](ConstVectorRef q) { return Matrix(Matrix::Constant(1, 1, a * (12 * q(0) * q(0) - 4))); };
  system->add(std::make_shared<FunctionPotential>("double-well", std::vector{particle}, 1, well));
  Model model;
  model.initial.q = Vector::Constant(1, p.at("q0"));
  model.initial.v = Vector::Constant(1, p.at("v0"));
  model.system = std::move(system);
  return model;
}

}  // namespace

Scenario double_well_scenario() {
  return {"double-well",
          "EnergyPreservingForcedVI: particle in the double well a (q^2 - 1)^2, an orbit in one well up to near the "
          "barrier (q0 = 0, v0 = 1.5: over it, both wells)",
          {.h = 0.05, .t_end = 20.0},
          {{"m", 1.0, "mass"},
           {"a", 1.0, "barrier height (wells at q = -1, 1)"},
           {"q0", 0.3, "initial position (our choice: a turning point near the barrier; energy 0.83 a)"},
           {"v0", 0.0, "initial velocity (our choice; q0 = 0, v0 = 1.5 gives energy 2.125 a > a: both wells)"}},
          build};
}

}  // namespace noether
