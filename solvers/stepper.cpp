#include "solvers/stepper.hpp"

#include <cstdio>

namespace noether {

std::string describe_step(const State& state, double h) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "step %d (t = %.6g -> %.6g)", state.step + 1, state.t, state.t + h);
  return buffer;
}

}  // namespace noether
