/// The first mechanism (README, docs/api.md): the pendulum of examples/scenes/pendulum.json in C++,
/// a uniform bar of 1 kg and 1 m hinged at one end to the ground and released horizontally,
/// stepped for 5 s by the Livens energy-momentum stepper. Prints the tip's position and the energy
/// error; exits with 1 unless the energy is conserved and the hinge holds.
#include <cmath>
#include <cstdio>
#include <memory>

#include <noether/noether.hpp>

using namespace noether;

int main() {
  Mechanism mechanism;
  const BodyRef bar = mechanism.add_planar_body("bar", {.mass = 1.0, .inertia = 1.0 / 12}, {.x = 0.5});
  mechanism.add(make_revolute_planar_to_ground("pivot", Eigen::Vector2d(0, 0), bar, Eigen::Vector2d(-0.5, 0)));
  mechanism.add(std::make_shared<Gravity>("bar.gravity", bar, 1.0, Eigen::Vector2d(0, 0), Eigen::Vector2d(0, -9.81)));

  LivensEnergyMomentum stepper(mechanism.system(), StepperOptions{});
  State state = mechanism.initial_state();
  stepper.initialize(state);
  const double energy0 = stepper.conserved_energy(state);
  for (int n = 0; n < 500; ++n) stepper.step(state, 0.01);

  const Vector tip = point_position(mechanism.system(), bar, state.q, Eigen::Vector2d(0.5, 0));
  const double energy_error = std::abs(stepper.conserved_energy(state) - energy0);
  Vector g(mechanism.system().num_multipliers());
  calc_constraint_values(mechanism.system(), state.q, g);
  std::printf("t = %g: tip at (%.6f, %.6f), energy error %.1e, max |g| %.1e\n", state.t, tip(0), tip(1),
              energy_error, max_abs(g));
  return energy_error <= 1e-11 && max_abs(g) <= 1e-12 ? 0 : 1;
}
