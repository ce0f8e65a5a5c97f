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
///   R_q = 2 Dbar_2 T - 2 p0 - h Dbar_1 T + h Dbar V + Gbar^T mu + C(q_mid) dq - h f - h F,   R_lambda = g(q1).
///
/// The increment dq (not q1) is the unknown so that 2 M dq/h carries no rounding from |q|: with
/// q1 as unknown, positions of 1e4 m put 2 M (q1 - q0)/h at a noise floor of ~1e-10.
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
/// Gbar (q1 - q0) + dbar = g(q1, t1) - g(q0, t0): the rows are g(q1, t1) = 0 and the reaction
/// -Gbar^T lambda, whose work over the step is lambda.dbar (for g = phi(q) - f(t):
/// -lambda (f(t1) - f(t0))), counted in StepReport::work, so E1 - E0 = W holds to Newton tolerance
/// with drives too. Second order; position constraints hold to Newton
/// tolerance, velocity constraints are not imposed. Accepts every solver but CHOLMOD (the Newton
/// matrix is unsymmetric, indefinite). Newton starts from v1 and lambda extrapolated from the last
/// steps (steppers/step_predictor.hpp).
struct LivensScheme;
using LivensEnergyMomentum = SchemeStepper<LivensScheme>;

}  // namespace noether
