#pragma once
/// [KinonBetschSchneider2023, Sec. 5.2]: the double four-bar linkage, a closed planar chain that
/// passes singular (horizontal) configurations.
#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// The data of [KinonBetschSchneider2023, Sec. 5.2] (SI units).
struct DoubleFourbarParameters {
  double mass = 1.0;           ///< m of each uniform bar
  double length = 1.0;         ///< l of each bar, also the spacing of the ground pivots
  double gravity = 9.81;       ///< g, along -e2
  double coupler_speed = 1.0;  ///< v0, initial velocity of the two coupler bars along +e1
  double damping = 0.0;        ///< eta of the dampers P1-P5, P2-P6 (0: none; the paper uses 0.5)
};

/// Five planar director bars "B1" ... "B5" (origin at the centre, d1 along the bar, J_c = m l^2/12,
/// E1 = E2 = J_c/2 as [KinonBetschSchneider2023, eq. (71)]), each with gravity. B1, B2, B3 stand
/// on the ground pivots P1 = (0, 0), P2 = (l, 0), P3 = (2l, 0) (planar revolute joints "P1", "P2",
/// "P3" at X = (-l/2, 0), eq. 74a); the coupler B4 joins the tops of B1 and B2 (joints "P4": B1-B4
/// and "P5.B4": B2-B4),
/// the coupler B5 the tops of B2 and B3 ("P5.B5": B2-B5 and "P6": B3-B5), as eq. (74b). 30
/// coordinates, 5 x 3 + 7 x 2 = 29 constraints, one degree of freedom: the inclination theta of the
/// grounded bars. The Jacobian loses rank at theta = 0, pi (all bars on one line).
/// With damping > 0 the PointDampers "damper.P1-P5" (B4's right end against P1) and "damper.P2-P6"
/// (B5's right end against P2) of eq. (77)-(78).
/// Initial state (the paper's): the upright position theta = pi/2 (two unit squares, couplers at
/// height l), the couplers moving at v0 along +e1, so the grounded bars turn at omega = -v0/l and
/// their centres move at v0/2; then G v0 = 0 exactly. Probe "B0": the top of B1 (the paper's P4).
/// The Model build_model makes of it throws std::invalid_argument for invalid body data (naming the
/// value) or a negative damping.
ModelDescription double_fourbar_description(const DoubleFourbarParameters& p);
Model build_double_fourbar(const DoubleFourbarParameters& p);

}  // namespace noether
