/// A system of its own coordinates, without bodies (docs/api.md): a unit-mass linear oscillator
/// integrated by the Livens energy-momentum stepper. Prints the energy before and after 100 steps;
/// exits with 1 unless they agree to 1e-12.
#include <cmath>
#include <cstdio>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/steppers/livens_em.hpp>

using namespace noether;

int main() {
  System system;
  const BlockId x = system.add_block("oscillator", {"x"});
  system.add(std::make_shared<ConstantInertia>("mass", std::vector{x}, Matrix::Identity(1, 1)));
  PotentialFunction spring{
      .energy = [](ConstVectorRef q) { return 0.5 * q(0) * q(0); },
      .gradient = [](ConstVectorRef q) { return Vector(q); },
      .hessian = [](ConstVectorRef) { return Matrix(Matrix::Identity(1, 1)); },
      .nonlinearity = Nonlinearity::quadratic};
  system.add(std::make_shared<FunctionPotential>("spring", std::vector{x}, 1, spring));

  LivensEnergyMomentum stepper(system, StepperOptions{});
  State state{.q = Vector::Ones(1), .v = Vector::Zero(1)};
  stepper.initialize(state);
  const double energy_before = stepper.conserved_energy(state);
  for (int n = 0; n < 100; ++n) stepper.step(state, 0.1);
  const double energy_after = stepper.conserved_energy(state);
  std::printf("t = %g  x = %.6f  energy before %.15f  after %.15f\n", state.t, state.q(0), energy_before, energy_after);
  return std::abs(energy_after - energy_before) <= 1e-12 ? 0 : 1;
}
