#pragma once
/// The largest constraint residuals along a run, for tests of what a stepper keeps.
#include <algorithm>

#include <noether/engine/measures.hpp>

namespace noether::testing {

/// max |g(q)| and max |G(q) v| over the states given to add.
struct ConstraintResiduals {
  double position = 0.0, velocity = 0.0;

  void add(const System& system, const State& state) {
    Vector g(system.num_multipliers());
    calc_constraint_values(system, state.q, g);
    position = std::max(position, max_abs(g));
    calc_velocity_constraint_values(system, state.q, state.v, g);
    velocity = std::max(velocity, max_abs(g));
  }
};

}  // namespace noether::testing
