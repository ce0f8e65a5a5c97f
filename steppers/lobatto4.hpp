#pragma once
/// lobatto4: the Lobatto IIIA-IIIB pair for holonomic constraints, of order 4 [Jay1996], as the
/// Galerkin variational integrator of quadratic curves [MarsdenWest2001].
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// The curve of a step is the quadratic q(t0 + c h) through q0, q_mid and q1 at c = 0, 1/2, 1
/// (Lagrange basis l_0, l_mid, l_1); its discrete Lagrangian is the three-point Lobatto rule
/// (Simpson's: nodes c_i = 0, 1/2, 1, weights w_i = 1/6, 4/6, 1/6) of L = 1/2 v.M v - V(q), with the
/// constraints held at every node:
///
///   L_d(q0, q_mid, q1) = h sum_i w_i L(Q_i, V_i),   Q_i = (q0, q_mid, q1)_i,   V_i = sum_k l_k'(c_i) Q_k / h.
///
/// Re-derived here from the discrete action (the seed extracts do not state it): the quadrature
/// nodes are the interpolation nodes, so node i's potential, load and damper enter only the
/// equation of Q_i, and with A_ik = sum_j w_j l_i'(c_j) l_k'(c_j) (A = [7 -8 1; -8 16 -8; 1 -8 7]/3)
///
///   D_{Q_i} L_d = sum_k A_ik M Q_k / h - h w_i DV(Q_i).
///
/// One step, in momentum form, with forces F(t, q, v) (viscous F = -C(q) v, loads f(t, q)) by the
/// discrete Lagrange-d'Alembert principle at the nodes (f_i = h w_i F(t0 + c_i h, Q_i, V_i); an
/// actuator's step force F(step, q0, q1), engine/actuator.hpp, as a force constant over the step:
/// f_i = h w_i F):
///
///   p0 + D_{q0} L_d + f_0 - G(q0)^T mu = 0,        D_{q_mid} L_d + f_mid - G(q_mid)^T mu_mid = 0,
///   g(q_mid) = 0,   g(q1) = 0,                     p1 = D_{q1} L_d + f_1 - G(q1)^T nu,   G(q1) M^{-1} p1 = 0.
///
/// Unknowns x = (dq, dq_mid, v1, mu, mu_mid, nu), q1 = q0 + dq, q_mid = q0 + dq_mid, p1 = M v1
/// (3d + 3m); residual, rows in that order (each a sum of element terms):
///
///   R_0   = -p0 - D_{q0} L_d - f_0 + G(q0)^T mu           (d)    R_g   = g(q1)       (m)
///   R_mid =     - D_{q_mid} L_d - f_mid + G(q_mid)^T mu_mid (d)  R_gmid = g(q_mid)  (m)
///   R_p   = M v1 - D_{q1} L_d - f_1 + G(q1)^T nu          (d)    R_nu  = G(q1) v1    (m).
///
/// The projection by nu moves no position, as in evi (steppers/evi.hpp): the next step's mu takes
/// up any normal component of p0. Its rows (R_p, R_nu) feed no other row, so the Newton matrix is
/// block lower triangular in ((dq, dq_mid, mu, mu_mid), (v1, nu)) and KLU's block triangular form
/// factors the two diagonal blocks apart.
///
/// Properties: symplectic (a variational integrator) and symmetric; order 4 in q and p [Jay1996]
/// (tests/steppers/test_lobatto4.cpp shows it on point masses and director bodies, docs/notebook.md
/// on chains); g = 0 at q_mid and q1 and G(q1) v1 = 0 at Newton tolerance; the momentum maps of the
/// symmetries of L and g (translations, rotations) are conserved exactly (discrete Noether theorem:
/// the quadratic interpolation commutes with them). The energy is not conserved exactly; its error
/// is O(h^4) and stays bounded without drift.
///
/// Linear stability (derived here: the discrete Lagrangian above for L = 1/2 v^2 - 1/2 omega^2 q^2,
/// q_mid eliminated, then p0 = -D_{q0} L_d, p1 = D_{q1} L_d): the one-step map of the harmonic
/// oscillator has determinant 1 and half-trace, with x = h omega,
///
///   tr/2 = (x^4 - 22 x^2 + 48) / (2 (x^2 + 24)),
///
/// so its solutions stay bounded (|tr/2| < 1) for x < 2 sqrt 2 = 2.83 and 2 sqrt 3 < x < 2 sqrt 6,
/// and grow exponentially for 2 sqrt 2 < x < 2 sqrt 3 = 3.46 and x > 2 sqrt 6 = 4.90
/// (tests/steppers/test_lobatto4.cpp). Unlike livens-em and its compositions, stable at every h, a
/// step must therefore resolve the system's fastest frequency: h omega_max < 2 sqrt 2. On a
/// whipping chain with too large a step the energy grows (docs/notebook.md, "Why lobatto4's
/// coarse runs are inaccurate").
///
/// Rheonomic constraints g(q, t) = 0 (driven joints) hold at each node at its time: g(q_mid, t0 +
/// h/2) = 0, g(q1, t1) = 0 and G(q1, t1) v1 + g_t(q1, t1) = 0, the impulses G^T mu at (q0, t0),
/// (q_mid, t_mid), (q1, t1) (steppers/rattle_constraint.hpp). The scheme keeps no discrete energy
/// balance; the drive's work it reports is its impulses' work mu.g_t + mu_mid.g_t + nu.g_t at the
/// three nodes (the quadrature of the power lambda.g_t by the scheme's own weights in its
/// multipliers), so the balance's residual is its energy error measured against that work.
///
/// Requirements (else StepperRefusal naming the element): every coordinate in exactly one inertia
/// element, each of constant, invertible M (as em-ggl and ggl-vi; a configuration-dependent M would
/// need D_q T at the nodes, which this scheme does not implement); a solver other than CHOLMOD. Any
/// potential, constraint, damper or load.
/// State after a step: q = q1, v = v1, p = M v1, lambda = mu_mid / (h w_mid), the multipliers at
/// the step's midpoint (the samples the warm start extrapolates, steppers/step_predictor.hpp).
struct LobattoScheme;
using LobattoVariationalIntegrator = SchemeStepper<LobattoScheme>;

}  // namespace noether
