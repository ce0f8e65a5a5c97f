#pragma once
/// Newton's initial guess for a step, extrapolated from the steps before it.
#include <noether/engine/state.hpp>

namespace noether {

/// End-of-step velocities and the step's multipliers, guessed for Newton's first iterate.
struct StepGuess {
  Vector v1;      ///< velocities at the end of the step (d)
  Vector lambda;  ///< the step's constraint multipliers (m)
};

/// Extrapolates the end velocities and the multipliers of a step from the k steps of one stepper
/// that led, one after another, to the state it advances. Velocities are samples at the step
/// points, v_0 at t, v_{-1} at t - h, ...; multipliers belong to steps, lambda_0 to the last one,
/// lambda_{-1} to the one before. With f = v or lambda, the guess for the next value is
///   quadratic, from the last three samples:  3 (f_0 - f_{-1}) + f_{-2},
///   linear, from the last two:               2 f_0 - f_{-1},
///   f_0 from one sample.
/// The k steps give k + 1 velocities (the first step's start counts) but only k multipliers: a
/// state the stepper did not make carries no step's multipliers (initialize sets lambda = 0), so
/// its lambda is never extrapolated from. Both quantities are smooth in t in second-order schemes,
/// so the quadratic guess is off by O(h^3), against O(h) for v1 = v0, lambda = lambda_0.
/// docs/performance.md ("Warm start") gives the Newton iterations it saves.
///
/// A step "follows" the recorded one when the state to advance is, bitwise, the one the recorded
/// step returned (same step, t, v and lambda) and h is unchanged. Otherwise (first step, a state
/// the user changed or rebuilt, a new h) the guess is v1 = v0, lambda = lambda_0, and the history
/// starts again. The guess changes no result beyond the Newton tolerance: Newton solves the same
/// equations from another start.
///
/// Holds six vectors of the state's size (the last three velocities and multipliers).
class StepPredictor {
 public:
  /// The guess for advancing `state` by h.
  StepGuess predict(const State& state, double h) const;

  /// Records a step of size h from `before` (its v and lambda) that returned `after`.
  void record(const State& before, const State& after, double h);

 private:
  bool continues_last_step(const State& state, double h) const;

  int followed_steps_ = 0;  ///< k: the steps recorded one after another up to result_* (0: none)
  double h_ = 0.0;
  Index step_ = 0;
  double t_ = 0.0;
  Vector earlier_v_, earlier_lambda_;  ///< what the step before the last one started from
  Vector start_v_, start_lambda_;      ///< what the last recorded step started from
  Vector result_v_, result_lambda_;    ///< what it returned
};

}  // namespace noether
