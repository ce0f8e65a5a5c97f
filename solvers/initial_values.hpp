#pragma once
/// The rule for initial values, for every stepper, the API, the command line and scene files
/// (docs/scenes.md, "Initial values"): a stepper starts only from positions and velocities on the
/// constraints, g(q) = 0 and G(q) v = 0, to within round-off. Stepper::initialize refuses others,
/// naming the equation, its element and its residual (require_consistent_initial_values);
/// project_initial_state moves them onto the constraints and reports the correction; `noether run`
/// applies it to every scenario and scene file, and refuses the run when the projection fails.
///
/// Round-off is measured row by row against the terms of the row: row i is met when
///   |g_i(q)|     <= 1e-10 sum_j |G_ij(q) q_j| + 1e-14 sum_j |G_ij(q)|,
///   |(G(q) v)_i| <= 1e-10 sum_j |G_ij(q) v_j| + 1e-14 sum_j |G_ij(q)|,
/// a relative 1e-10 of the row's magnitude (a million times the rounding of computed initial values,
/// far below any mismatch of a model: positions off by 1e-6 are refused) and an absolute 1e-14 in
/// the units of the coordinates (rows whose terms all vanish).
#include <stdexcept>
#include <string>
#include <string_view>

#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>
#include <noether/solvers/projection.hpp>

namespace noether {

/// The row that violates its tolerance the most, relative to it.
struct ConstraintViolation {
  Index row = -1;          ///< its global multiplier row; -1 when every row is met
  double residual = 0.0;   ///< its |g_i| or |(G v)_i|
  double tolerance = 0.0;  ///< what round-off allows it (the rule above)
  double largest = 0.0;    ///< max_i |g_i| or |(G v)_i| over all rows
};

/// The position rule at q (num_coordinates()), at time t (read by rheonomic constraints only:
/// g(q, t), and G(q, t) v + g_t(q, t) for the velocity rule).
ConstraintViolation position_violation(const System& system, ConstVectorRef q, double t = 0.0);
/// The velocity rule at q, v.
ConstraintViolation velocity_violation(const System& system, ConstVectorRef q, ConstVectorRef v, double t = 0.0);

/// Thrown for initial values off the constraints: names the equation, its element and its residual.
class InconsistentInitialValues : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Throws InconsistentInitialValues, starting with `who` (the stepper), unless state.q and state.v
/// meet the rule ("livens-em: the initial positions are off the constraints: constraint 'P4' row 0
/// has |g| = 0.001 (round-off allows 2e-10); project them first with project_initial_state ...").
/// q and v must have num_coordinates() finite entries.
void require_consistent_initial_values(const System& system, const State& state, std::string_view who);

/// What project_initial_state did. Positions first, then velocities at the projected positions.
struct InitialProjection {
  ConstraintViolation positions, velocities;  ///< before the projection (row -1: met, untouched)
  double position_correction = 0.0;           ///< max_i |q_i after - q_i before|
  double velocity_correction = 0.0;           ///< max_i |v_i after - v_i before|
  Index position_coordinate = -1, velocity_coordinate = -1;  ///< where each was largest (-1: none)
  bool projected() const { return positions.row >= 0 || velocities.row >= 0; }
};

/// Projects state.q onto g = 0 when it violates the rule (Gauss-Newton with the minimum-norm
/// correction, ConstraintProjector, until every row meets a hundredth of its tolerance), then
/// state.v onto G(q) v = 0 when it does; a state that meets the rule is left bitwise as it was.
/// Throws ProjectionError (naming the constraint row) when the projection fails: redundant or
/// singular constraints at q, or no convergence (positions too far from the constraints).
InitialProjection project_initial_state(const System& system, State& state, ProjectionOptions options = {});

/// "the initial positions violated constraint 'P4' row 0 by 0.001; projected onto the constraints,
/// max |dq| = 0.0007 at B4.phi.x" (and the velocities likewise), or "" when nothing was projected.
std::string describe(const System& system, const InitialProjection& projection);

}  // namespace noether
