#pragma once
/// The state a stepper advances and a mechanism builder starts from.
#include <limits>

#include <noether/engine/types.hpp>

namespace noether {

/// q, v: coordinates and velocities (num_coordinates()); p: the scheme's momentum variable
/// (conjugate momenta; for Livens-type schemes the independent momentum of the mixed
/// formulation); lambda: the constraint multipliers of the last step (num_multipliers(), forces;
/// zero before the first step).
/// discrete_energy: for the schemes in which time is an unknown (sem-vi), the discrete energy
/// E_k of the extended discrete state (q_k, p_k, t_k, E_k) that the next step balances; NaN for
/// a state no such step made (the other schemes' states, initial values).
/// A value: one thread's, or shared read-only (a stepper writes only the State it is given).
struct State {
  Index step = 0;
  double t = 0.0;
  Vector q{}, v{}, p{}, lambda{};
  double discrete_energy = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace noether
