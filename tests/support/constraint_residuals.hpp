#pragma once
/// The largest constraint residuals along a run, for tests of what a stepper keeps.
#include <algorithm>

#include <noether/engine/measures.hpp>

namespace noether::testing {

/// max |g(q, t)| and max |G(q, t) v + g_t(q, t)| over the states given to add (at their times: t
/// matters for rheonomic constraints only).
struct ConstraintResiduals {
  double position = 0.0, velocity = 0.0;

  void add(const System& system, const State& state) {
    Vector g(system.num_multipliers());
    calc_constraint_values(system, state.q, g, state.t);
    position = std::max(position, max_abs(g));
    calc_velocity_constraint_values(system, state.q, state.v, g, state.t);
    velocity = std::max(velocity, max_abs(g));
  }
};

}  // namespace noether::testing
