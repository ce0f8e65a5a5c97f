#pragma once
/// The state a stepper advances and a mechanism builder starts from.
#include <noether/engine/types.hpp>

namespace noether {

/// q, v: coordinates and velocities (num_coordinates()); p: the scheme's momentum variable
/// (conjugate momenta; for Livens-type schemes the independent momentum of the mixed
/// formulation); lambda: the constraint multipliers of the last step (num_multipliers(), forces;
/// zero before the first step).
struct State {
  Index step = 0;
  double t = 0.0;
  Vector q{}, v{}, p{}, lambda{};
};

}  // namespace noether
