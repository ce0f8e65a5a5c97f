#pragma once
/// Energy-momentum scheme for the GGL equations [KinonBetschSchneider2023]: their midpoint
/// discrete gradients [Gonzalez1996] ("EMS_ggl" in the authors' metis code).
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// The GGL equations are Hamiltonian with H_GGL = H(q, p) + lambda.g(q) + gamma.g_v(q, p),
/// H = 1/2 p.M^{-1} p + V(q), g_v = G(q) M^{-1} p. For constraints of degree <= 2, g and g_v are
/// at most quadratic in z = (q, p), so midpoint gradients are exact discrete gradients and one step
/// (unknowns q1, p1, lambda, gamma; a_mid = (a0 + a1)/2, H_k = D^2 g_k constant) reads
///
///   q1 - q0 = h M^{-1} p_mid + h M^{-1} G(q_mid)^T gamma
///   p1 - p0 = -h Dbar V(q0, q1) - h G(q_mid)^T lambda - h sum_k gamma_k H_k M^{-1} p_mid
///             - C(q_mid)(q1 - q0) + h f(t_mid, q_mid) + h F(step, q0, q1)
///   g(q1) = 0,     G(q1) M^{-1} p1 = 0.
///
/// Energy identity. Without damping and loads the first two lines are z1 - z0 = h J Dbar H_GGL
/// (J the symplectic matrix, lambda and gamma frozen), so Dbar H_GGL.(z1 - z0) = 0, and by
/// directionality H_GGL(z1) - H_GGL(z0) = 0 = [H(z1) - H(z0)] + lambda.[g(q1) - g(q0)]
/// + gamma.[g_v(z1) - g_v(z0)]. Both constraint levels vanish at every node, so H(z1) = H(z0)
/// exactly. Damping adds -Dbar_p H_GGL.C (q1 - q0) = -(q1 - q0).C(q_mid)(q1 - q0)/h, the work of the
/// dampers over the step with the mean velocity (q1 - q0)/h; a load adds f.(q1 - q0), an actuator
/// F.(q1 - q0) (its step force, engine/actuator.hpp).
/// Rheonomic constraints g(q, t) = 0 (driven joints), of degree <= 2 in q at every t: the velocity
/// constraint is g_v = G(q, t) M^{-1} p + g_t(q, t) (g_t = dg/dt; G v = -g_t), and H_GGL depends on t
/// through lambda.g + gamma.g_v alone. Its discrete gradient in z over (z0, t0) -> (z1, t1) is the
/// average of the midpoint gradients at t0 and t1 (Constraint::calc_discrete_gradient_at), so the
/// step adds h Gbar_t^T gamma to the momentum balance (Gbar_t the average of D_q g_t at q_mid),
/// and the rows are g(q1, t1) = 0, G(q1, t1) u1 + g_t(q1, t1) = 0. The same directionality then
/// gives H(z1) - H(z0) = lambda.dbar + gamma.dbar_v, dbar and dbar_v the t parts of the split of g
/// and g_v (the step's work of the drive, counted in StepReport::work): the energy balance holds
/// to Newton tolerance with drives too.
/// Momentum maps: every term is a midpoint gradient of an invariant function, so linear and
/// angular momentum of symmetric systems are conserved exactly.
///
/// Newton unknowns (2d + 2m; M^{-1} never applied): dq, u1, nu, gamma, q1 = q0 + dq (dq, not
/// q1, so that M dq/h carries no rounding from large |q|), u = M^{-1} p the velocity (u0 = v0),
/// nu = h lambda - 2 gamma. The rows are the position update multiplied by M/h, R_q, and R_p =
/// R_u + 2 R_q, R_u = M (u1 - u0) + h Dbar V + G(q_mid)^T h lambda + h sum_k gamma_k H_k u_mid +
/// C(q_mid)(q1 - q0) - h f the momentum balance; in R_p, M u1 and G^T gamma cancel:
///
///   R_p = 2 M (q1 - q0)/h - 2 M u0 + h Dbar V + G(q_mid)^T nu + h sum_k gamma_k H_k u_mid
///         + C(q_mid)(q1 - q0) - h f - h F                                              (d)
///   R_q = M (q1 - q0)/h - M u_mid - G(q_mid)^T gamma                                     (d)
///   R_g = g(q1),    R_gv = G(q1) u1                                                     (m each)
///
/// R_p is livens-em's momentum balance for constant M (steppers/livens_em.hpp, nu in the place of
/// its h lambda) plus h sum_k gamma_k H_k u_mid. The solution is the one of (R_q, R_u, R_g, R_gv)
/// in (dq, u1, h lambda, gamma); KLU factors the exact Newton matrix of these rows and unknowns
/// with fewer entries and instructions. Per body the unknowns come as (u1, nu, gamma, dq), the
/// order in which the body's block fills in least (docs/notebook.md, "em-ggl against
/// livens-em").
///
/// Requirements as ggl-vi (steppers/ggl_support.hpp): constant invertible M per inertia element,
/// constraints of degree <= 2 (rheonomic ones at every t), a solver other than CHOLMOD. Second order. After a step:
/// q = q1, v = u1, p = M u1, lambda = (nu + 2 gamma) / h; g(q) = 0 and G(q) v = 0 at Newton tolerance.
/// Newton starts from v1 and lambda extrapolated from the last steps (steppers/step_predictor.hpp).
/// The energy it conserves: H = 1/2 v.M v + V(q) (= 1/2 p.M^{-1} p + V).
struct EmGglScheme;
using EnergyMomentumGgl = SchemeStepper<EmGglScheme>;

}  // namespace noether
