#pragma once
/// The Livens energy-momentum stepper [KinonBetsch2023].
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// Energy-momentum scheme from Livens' principle [KinonBetsch2023]: q, v and p are independent,
/// so M is never inverted and may be singular or depend on q. One step solves, for
/// (q1, v1, p1, lambda),
///
///   q1 - q0 = h v_mid
///   p1 - p0 = h Dbar_1 T - h Dbar V(q0, q1) - h Gbar(q0, q1)^T lambda - h C(q_mid) v_mid + h f(t_mid, q_mid)
///             + h F(step, q0, q1)
///   p_mid   = Dbar_2 T                      (Dbar T: discrete gradient of T(q, v) in z = (q, v))
///   g(q1)   = 0
///
/// eliminated to the unknowns x = (dq, mu), q1 = q0 + dq, mu = h lambda (d + m), with
/// v1 = 2 dq/h - v0, p1 = 2 Dbar_2 T - p0, residual
///
///   R_q = 2 Dbar_2 T - 2 p0 - h Dbar_1 T + h Dbar V + Gbar^T mu + C(q_mid) dq - h f - h F,
///   R_lambda = Gbar dq + c g(q0).
///
/// The increment dq (not q1) is the unknown so that 2 M dq/h carries no rounding from |q|: with
/// q1 as unknown, positions of 1e4 m put 2 M (q1 - q0)/h at a noise floor of ~1e-10.
///
/// The constraint rows. Gbar dq = g(q1) - g(q0) (the discrete gradient's defining identity), so
/// from a state with g(q0) = 0 the rows are g(q1) = 0 for any c; c (1/100) decides only what
/// rounding does. g(q1) itself as the rows (c = 1) carries the rounding of the positions, eps |q|
/// per row, a new draw each step; near a singular configuration (G loses rank, as at a
/// parallelogram's crossing) that draw sets the multipliers and the position along the lost rank,
/// amplified by 1/sigma_min, and the step's energy changes by lambda.(g(q1) - g(q0)), 1e-9 where
/// lambda ~ 1e6. Gbar dq alone (c = 0) keeps the energy steps at rounding, but g then follows the
/// rounding of q1 = q0 + dq as a random walk (1e-14 after 10^4 steps), and a drifted g near a
/// crossing steers the path onto the level set g = delta, a hyperbola joining the two branches.
/// With c, g settles near eps / sqrt(2 c) and the energy steps stay near eps lambda sqrt(c / 2)
/// (docs/notebook.md, "The constraint's increment as its rows"). Precondition: g(q0) is rounding
/// (Stepper::initialize refuses a state off the constraints), else the rows pull g to 0 by the
/// share c a step only.
///
/// Constant M: Dbar_2 T = M v_mid, Dbar_1 T = 0. Configuration-dependent M: Gonzalez's discrete
/// gradient [Gonzalez1996] on z. Discrete gradients of V and g: the midpoint gradient for degree
/// <= 2, Gonzalez's otherwise. Conserves the generalized energy E = p.v - T(q, v) + V(q) exactly
/// (to Newton tolerance) when there is no damping and no external load; otherwise
/// E1 - E0 = -h v_mid.C v_mid + f.(q1 - q0) + F.(q1 - q0), F the actuators' step force
/// (engine/actuator.hpp: for a motor tau Dbar x, whose work is tau (x(q1) - x(q0)) exactly).
///
/// Rheonomic constraints g(q, t) = 0 (driven joints). The principle's constraint term is the
/// discrete gradient of lambda.g in (q, t) over (q0, t0) -> (q1, t1), split into Gbar (its q part,
/// in the momentum balance) and dbar (its t part; Constraint::calc_discrete_gradient_at), with
/// Gbar (q1 - q0) + dbar = g(q1, t1) - g(q0, t0): the rows are that increment, Gbar dq + dbar +
/// c g(q0, t0) = 0, and the reaction -Gbar^T lambda does the work lambda.dbar over the step (for
/// g = phi(q) - f(t): -lambda (f(t1) - f(t0))), counted in StepReport::work, so E1 - E0 = W holds
/// to Newton tolerance with drives too (and c lambda.g(q0), rounding). Second order; position constraints hold to Newton tolerance and the rounding
/// above, velocity constraints are not imposed. Accepts every solver but CHOLMOD (the Newton
/// matrix is unsymmetric, indefinite). Newton starts from v1 and lambda extrapolated from the last
/// steps (steppers/step_predictor.hpp).
struct LivensScheme;
using LivensEnergyMomentum = SchemeStepper<LivensScheme>;

}  // namespace noether
