#pragma once
/// Newton's initial guess for a step, extrapolated from the steps before it.
#include <array>

#include <string_view>

#include <noether/engine/state.hpp>
#include <noether/steppers/stepper_history.hpp>

namespace noether {

/// End-of-step velocities and the step's multipliers, guessed for Newton's first iterate.
struct StepGuess {
  Vector v1;      ///< velocities at the end of the step (d)
  Vector lambda;  ///< the step's constraint multipliers (m)
};

/// Extrapolates the end velocities and the multipliers of a step from the k steps of one stepper
/// that led, one after another, to the state it advances, whatever their sizes: the substeps of a
/// composition (steppers/composition.hpp), which alternate forward and backward steps of different
/// sizes, or the half-steps of a refined step. Velocities are samples at the step points,
/// multipliers samples at the steps' midpoints (a step's multipliers are its mean constraint
/// force, the force at the midpoint to second order). With times relative to the state to advance
/// (tau = 0) and h_0, h_{-1}, ... the sizes of the steps that led to it, the samples are
///   velocities   v_0 at 0, v_{-1} at -h_0, v_{-2} at -h_0 - h_{-1};
///   multipliers  lambda_0 at -h_0/2, lambda_{-1} at -h_0 - h_{-1}/2, lambda_{-2} at ...;
/// the guess is the polynomial through the last three samples (two, one) evaluated at h for v1
/// and at h/2 for lambda (Lagrange's form). For steps of one size this is
///   quadratic, from three samples:  3 (f_0 - f_{-1}) + f_{-2},
///   linear, from two:               2 f_0 - f_{-1},
///   f_0 from one.
/// A polynomial whose weights add up in magnitude to more than kMaxWeightSum (nodes close together
/// against the distance to the target: a step back over the one just taken) would amplify the
/// samples' errors: the degree is lowered until they do not.
/// The k steps give k + 1 velocities (the first step's start counts) but only k multipliers: a
/// state the stepper did not make carries no step's multipliers (initialize sets lambda = 0), so
/// its lambda is never extrapolated from. Both quantities are smooth in t in second-order schemes,
/// so the quadratic guess is off by O(h^3), against O(h) for v1 = v0, lambda = lambda_0.
/// docs/notebook.md ("Warm start", "The warm start across substeps") gives the Newton iterations it saves.
///
/// A step "follows" the recorded one when the state to advance is, bitwise, the one the recorded
/// step returned (same q, v and lambda; its step and t may have been renumbered, as a composition
/// does after its substeps). Otherwise (first step, a state the user changed or rebuilt) the
/// guess is v1 = v0, lambda = lambda_0, and the history starts again. The guess changes no result
/// beyond the Newton tolerance: Newton solves the same equations from another start.
///
/// Holds seven vectors of the state's size (the last q, three velocities and three multipliers).
class StepPredictor {
 public:
  /// Largest sum of |Lagrange weights| used (steps of one size: 7 for the quadratic). Coinciding
  /// nodes (a step back over the one just taken) give infinite weights; the compositions' substeps
  /// reach 17 to 230 at some substeps (livens-em4, livens-em6), where the bound's value matters
  /// little: any from 8 to 1000 gives nearly the same Newton work (docs/notebook.md, "Figures moved
  /// from code comments").
  static constexpr double kMaxWeightSum = 16.0;

  /// The guess for advancing `state` by h.
  StepGuess predict(const State& state, double h) const;

  /// Records a step of size h from `before` (its v and lambda) that returned `after`.
  void record(const State& before, const State& after, double h);

  /// Puts the samples and step sizes into history under keys starting with prefix; restore reads
  /// them back, bitwise. restore throws std::invalid_argument naming the entry when one is
  /// missing, or a sample the guess would use does not hold `coordinates` (velocities, q) or
  /// `multipliers` values.
  void save(StepperHistory& history, std::string_view prefix) const;
  void restore(const StepperHistory& history, std::string_view prefix, Index coordinates, Index multipliers);

 private:
  bool continues_last_step(const State& state) const;

  int followed_steps_ = 0;           ///< k: the steps recorded one after another up to result_* (0: none)
  std::array<double, 3> sizes_{};      ///< h_0, h_{-1}, h_{-2}: the sizes of the last recorded steps
  Vector result_q_;                    ///< q of the state the last recorded step returned
  std::array<Vector, 3> velocities_;   ///< v_0 (that state's), v_{-1}, v_{-2}
  std::array<Vector, 3> multipliers_;  ///< lambda_0 (that state's), lambda_{-1}, lambda_{-2}
};

}  // namespace noether
