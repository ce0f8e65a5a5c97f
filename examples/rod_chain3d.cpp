/// A hanging chain of five slender rods (no axial inertia: the mass matrix is singular), the same
/// model as `noether run rod-chain3d`. Only the Livens stepper treats it; the GGL steppers refuse.
#include <noether/apps/scenarios/rod_chain3d.hpp>

#include <cstdio>

#include <noether/steppers/ggl_vi.hpp>
#include <noether/steppers/livens_em.hpp>

using namespace noether;

int main() {
  const Model model = build_rod_chain3d({});
  try {
    GglVariationalIntegrator refused(*model.system, StepperOptions{});
  } catch (const StepperRefusal& refusal) {
    std::printf("ggl-vi: %s\n", refusal.what());
  }
  LivensEnergyMomentum stepper(*model.system, StepperOptions{});
  State state = model.initial;
  stepper.initialize(state);
  std::printf("%6s %10s %10s %10s %18s\n", "t", "tip.x", "tip.y", "tip.z", "energy");
  for (int n = 0; n <= 500; ++n) {
    if (n % 50 == 0) {
      const Vector tip = model.probes.front().position(state);
      std::printf("%6.2f %10.6f %10.6f %10.6f %18.12f\n", state.t, tip(0), tip(1), tip(2),
                  stepper.conserved_energy(state));
    }
    if (n < 500) stepper.step(state, 0.01);
  }
}
