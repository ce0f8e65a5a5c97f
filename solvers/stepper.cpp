#include "solvers/stepper.hpp"

#include "engine/measures.hpp"
#include "solvers/step_system.hpp"

#include <cstdio>

namespace noether {

std::string describe_step(const State& state, double h) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "step %d (t = %.6g -> %.6g)", state.step + 1, state.t, state.t + h);
  return buffer;
}

void initialize_momentum(const System& system, State& state) {
  state.p.resize(system.num_coordinates());
  calc_momentum(system, state.q, state.v, state.p);
  state.lambda = Vector::Zero(system.num_multipliers());
}

}  // namespace noether
