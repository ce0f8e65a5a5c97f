#pragma once
/// Newton's initial guess for a step, extrapolated from the steps before it.
#include "engine/state.hpp"

namespace noether {

/// End-of-step velocities and the step's multipliers, guessed for Newton's first iterate.
struct StepGuess {
  Vector v1;      ///< velocities at the end of the step (d)
  Vector lambda;  ///< the step's constraint multipliers (m)
};

/// Extrapolates the velocities and multipliers of a step linearly from the last two steps of one
/// stepper: v1 = 2 v0 - v_{-1}, lambda = 2 lambda_0 - lambda_{-1}, where v_{-1} and lambda_{-1}
/// are those the previous step started from. Both are second-order schemes' quantities that are
/// smooth in t, so the guess is off by O(h^2) instead of the O(h) of v1 = v0, lambda = lambda_0:
/// Newton starts with a residual 5 to 10 times smaller (on nfourbar, grid2d and the double four-bar
/// a step then needs 10 to 33 % fewer iterations; docs/performance.md).
///
/// The extrapolation is used only when the state to advance is, bitwise, the one the recorded step
/// returned (same step, t, v and lambda) and h is unchanged; otherwise (first step, a state the
/// user changed or rebuilt, a new h) the guess is v1 = v0, lambda = lambda_0. The guess changes no
/// result beyond the Newton tolerance: Newton solves the same equations from another start.
///
/// Holds four vectors of the state's size (the last step's start and result).
class StepPredictor {
 public:
  /// The guess for advancing `state` by h.
  StepGuess predict(const State& state, double h) const;

  /// Records a step of size h from `before` (its v and lambda) that returned `after`.
  void record(const State& before, const State& after, double h);

 private:
  bool continues_last_step(const State& state, double h) const;

  bool recorded_ = false;
  double h_ = 0.0;
  Index step_ = 0;
  double t_ = 0.0;
  Vector start_v_, start_lambda_;    ///< v and lambda the recorded step started from
  Vector result_v_, result_lambda_;  ///< v and lambda it returned
};

}  // namespace noether
