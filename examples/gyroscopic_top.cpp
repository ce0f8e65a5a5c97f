/// The gyroscopic top in steady precession of [KinonBetschSchneider2023, Sec. 5.1], the same
/// model as `noether run top`:
/// the symplectic GGL integrator (first order) against the energy-momentum scheme of the GGL
/// equations (second order). Prints the height of the centre of mass, which stays at
/// l cos(alpha0) = 0.0375 m for the exact motion, and the energy and vertical angular momentum.
#include <cstdio>

#include <noether/apps/scenarios/top.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/em_ggl.hpp>
#include <noether/steppers/ggl_vi.hpp>

using namespace noether;

namespace {

template <class Scheme>
void run(const char* title, double h, int steps) {
  const GyroscopicTopParameters paper;
  const Model model = build_gyroscopic_top(paper);
  Scheme stepper(*model.system, StepperOptions{});
  State state = model.initial;
  stepper.initialize(state);
  std::printf("%s, h = %g (omega_s = %.2f/s from eq. 66)\n", title, h, steady_precession_spin_rate(paper));
  std::printf("%8s %14s %18s %18s\n", "t", "z_com - 0.0375", "energy", "L3 about the tip");
  for (int n = 0; n <= steps; ++n) {
    if (n % (steps / 5) == 0)
      std::printf("%8.3f %14.3e %18.12f %18.14f\n", state.t,
                  model.probes.front().position(state)(2) - steady_precession_height(paper),
                  stepper.conserved_energy(state), momenta(*model.system, state.q, state.v).angular(2));
    if (n < steps) stepper.step(state, h);
  }
}

}  // namespace

int main() {
  run<GglVariationalIntegrator>("ggl-vi (KinonBetschSchneider2023, eq. 41)", 0.002, 1000);
  run<EnergyMomentumGgl>("em-ggl", 0.002, 1000);
}
