#pragma once
/// The GGL variational integrator [KinonBetschSchneider2023, eqs. (39)-(41), (57)].
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// First-order symplectic integrator from the discrete GGL action [KinonBetschSchneider2023, eq. (39)], with
/// L = 1/2 v.M v - V(q), qbar = q^n + h v^n and S_d = sum_n S_n,
///
///   S_n = h L(q^n, v^n) - h lambda^{n+1}.g(q^{n+1})
///         + p^{n+1}.(q^{n+1} - q^n - h v^n - h M^{-1} G(qbar)^T gamma^{n+1}).
///
/// Derivation of the momentum balance. q^n enters S_n directly and through qbar (dqbar/dq^n = I),
/// with d/dqbar [p.M^{-1} G(qbar)^T gamma] = sum_k gamma_k D^2 g_k(qbar) M^{-1} p; it enters
/// S_{n-1} through -h lambda^n.g(q^n) + p^n.q^n. Hence dS_d/dq^n = 0 reads
///
///   p^{n+1} - p^n = h D_1 L(q^n, v^n) - h G(q^n)^T lambda^n - h sum_k gamma_k D^2 g_k(qbar) M^{-1} p^{n+1},
///
/// with p^{n+1}, as in eq. (40b): the M^{-1} p^n of the extracted eq. (41b) (and (57b)) is a
/// misprint. The test "ggl-vi conserves angular momentum" decides it: with p^{n+1},
/// J = sum_i x_i x p_i at the nodes is conserved exactly for rotationally symmetric systems
/// (J^{n+1} - J^n reduces to h (M v^n) x v^n = 0 using eq. (41c)); with p^n it is not.
/// dS_d/dv^n = 0 gives (41c): M v^n = (I + h H M^{-1}) p^{n+1}, H = sum_k gamma_k D^2 g_k.
///
/// One step, with viscous damping F = -C(q) v and external loads f(t, q) at t^n (eq. 57), solves
///
///   (41a)  q^{n+1} - q^n = h v^n + h M^{-1} G(qbar)^T gamma
///   (41b)  p^{n+1} - p^n = -h DV(q^n) - h G(q^n)^T lambda^n - h H M^{-1} p^{n+1} - h C(q^n) v^n + h f(t^n, q^n)
///   (41c)  M v^n = (I + h H M^{-1}) p^{n+1}
///   (41d)  g(q^{n+1}) = 0,    (41e)  G(qbar) M^{-1} p^{n+1} = 0.
///
/// Unknowns (3d + 2m, M^{-1} never applied inside Newton): x = (v^n, u, q^{n+1}, mu, gamma) with
/// u = M^{-1} p^{n+1} (so p^{n+1} = M u), mu = h lambda^n (an impulse) and gamma unscaled
/// (G^T gamma is already a momentum). (41b) minus (41c) eliminates H; (41a) is multiplied by M/h.
/// Residual, all momentum balances in momentum units:
///
///   R_v   = (M + h C(q^n)) v^n - p^n + h DV(q^n) + G(q^n)^T mu - h f(t^n, q^n)     (d)
///           - h F(step, q^n, q^{n+1})   (an actuator's force over the step, engine/actuator.hpp)
///   R_u   = M v^n - M u - h H u                                                   (d)
///   R_q   = M (q^{n+1} - q^n)/h - M v^n - G(qbar)^T gamma                          (d)
///   R_g   = g(q^{n+1}),     R_gv = G(qbar) u                                      (m each)
///
/// Every term is local to one element, so the Newton matrix keeps the sparsity of the elements.
///
/// Rheonomic constraints g(q, t) = 0 (driven joints): the action's constraint terms become
/// -h lambda^{n+1}.g(q^{n+1}, t^{n+1}) and -h gamma.(G(qbar, t^{n+1}) M^{-1} p^{n+1} + g_t(qbar, t^{n+1})),
/// the velocity constraint with its rate g_t = dg/dt at the step's end time. Its stationarity adds
/// h D_q(gamma.g_t)(qbar) = h G_t^T gamma (G_t = D_q g_t) to (41b) and (41c) alike, so R_v is
/// unchanged (with G(q^n, t^n)), R_u gains -h G_t^T gamma, R_g = g(q^{n+1}, t^{n+1}) and
/// R_gv = G(qbar, t^{n+1}) u + g_t(qbar, t^{n+1}). The scheme keeps no discrete energy balance; the
/// drive's work it reports is its impulse's at the step's start, mu.g_t(q^n, t^n) (the power
/// lambda.g_t there, as its forces are taken at t^n), so the balance's residual is its energy error
/// measured against that work.
///
/// Requirements (else StepperRefusal naming the element and the alternative): every coordinate in
/// exactly one inertia element, each with a constant, symmetric positive definite M (checked by
/// LDLT with a relative pivot threshold; M^{-1} is built per element once, for the energy);
/// constraints of degree <= 2 (D^2 g_k constant: no third derivatives); a solver other than
/// CHOLMOD (the Newton matrix is unsymmetric and indefinite).
///
/// Properties: symplectic; momentum maps of symmetric systems conserved exactly (to Newton
/// tolerance); g(q^{n+1}) = 0 and G(qbar) M^{-1} p^{n+1} = 0 at Newton tolerance, so G(q) v is
/// zero at the nodes only for linear constraints; first order. The energy
/// H = 1/2 p.M^{-1} p + V(q) is not conserved exactly, but without damping its error stays
/// bounded (O(h), no drift) over long times; with damping it decays by the dissipated work.
/// State after a step: q = q^{n+1}, p = p^{n+1}, v = M^{-1} p^{n+1} = u, lambda = lambda^n.
struct GglScheme;
using GglVariationalIntegrator = SchemeStepper<GglScheme>;

}  // namespace noether
