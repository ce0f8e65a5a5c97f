/// The double four-bar linkage of [KinonBetschSchneider2023, Sec. 5.2], the same model as
/// `noether run double-fourbar`, with the paper's two dampers (eta = 0.5 N s/m). The Livens
/// energy-momentum stepper passes the
/// horizontal (singular) configurations; each step's energy loss equals the dampers' work.
#include <noether/apps/scenarios/double_fourbar.hpp>

#include <cmath>
#include <cstdio>

#include <noether/engine/measures.hpp>
#include <noether/steppers/livens_em.hpp>

using namespace noether;

int main() {
  const Model model = build_double_fourbar({.damping = 0.5});
  LivensEnergyMomentum stepper(*model.system, StepperOptions{});
  State state = model.initial;
  stepper.initialize(state);
  const double h = 0.01;
  int passages = 0;
  Vector g(model.system->num_multipliers());
  std::printf("%6s %10s %10s %12s %10s\n", "t", "P4.x", "P4.y", "energy", "max|g|");
  for (int n = 0; n <= 1000; ++n) {
    const Vector top = model.probes.front().position(state);  // probe "B0": the top of B1, P4
    if (n % 100 == 0) {
      calc_constraint_values(*model.system, state.q, g);
      std::printf("%6.2f %10.6f %10.6f %12.8f %10.2e\n", state.t, top(0), top(1), stepper.conserved_energy(state),
                  max_abs(g));
    }
    if (n == 1000) break;
    stepper.step(state, h);
    if ((model.probes.front().position(state)(1) > 0) != (top(1) > 0)) ++passages;
  }
  std::printf("passages of the singular horizontal configuration in 10 s: %d\n", passages);
}
