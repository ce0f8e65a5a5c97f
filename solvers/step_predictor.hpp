#pragma once
/// Newton's initial guess for a step, extrapolated from the steps before it.
#include "engine/state.hpp"

namespace noether {

/// End-of-step velocities and the step's multipliers, guessed for Newton's first iterate.
struct StepGuess {
  Vector v1;      ///< velocities at the end of the step (d)
  Vector lambda;  ///< the step's constraint multipliers (m)
};

/// Extrapolates the velocities and multipliers of a step from the steps of one stepper before it,
/// through the values at t - 2h, t - h and t (f = v or lambda; f_{-k} is what the step k steps back
/// started from):
///   quadratic, when the last two steps followed one another:  f(t + h) ~ 3 f_0 - 3 f_{-1} + f_{-2},
///   linear, when only the last step is known:                 f(t + h) ~ 2 f_0 - f_{-1}.
/// Both are second-order schemes' quantities that are smooth in t, so the guess is off by O(h^3)
/// (O(h^2) for the linear one) instead of the O(h) of v1 = v0, lambda = lambda_0. Against v1 = v0
/// the linear guess saved 10 to 33 % of the Newton iterations on nfourbar, grid2d and the double
/// four-bar; the quadratic one saves another 10 to 26 % with livens-em on nfourbar, the top and
/// the spring pendulum, and at most 4 % elsewhere (docs/performance.md, "Warm start").
///
/// A step "follows" the recorded one when the state to advance is, bitwise, the one the recorded
/// step returned (same step, t, v and lambda) and h is unchanged. Otherwise (first step, a state
/// the user changed or rebuilt, a new h) the guess is v1 = v0, lambda = lambda_0, and the history
/// starts again. The guess changes no result beyond the Newton tolerance: Newton solves the same
/// equations from another start.
///
/// Holds six vectors of the state's size (the last two steps' starts and the last result).
class StepPredictor {
 public:
  /// The guess for advancing `state` by h.
  StepGuess predict(const State& state, double h) const;

  /// Records a step of size h from `before` (its v and lambda) that returned `after`.
  void record(const State& before, const State& after, double h);

 private:
  bool continues_last_step(const State& state, double h) const;

  bool recorded_ = false;
  bool recorded_two_ = false;  ///< the recorded step followed the one before it (earlier_* are set)
  double h_ = 0.0;
  Index step_ = 0;
  double t_ = 0.0;
  Vector earlier_v_, earlier_lambda_;  ///< v and lambda the step before the recorded one started from
  Vector start_v_, start_lambda_;      ///< v and lambda the recorded step started from
  Vector result_v_, result_lambda_;    ///< v and lambda it returned
};

}  // namespace noether
