#pragma once
/// The symplectic-energy-momentum variational integrator with adaptive time steps and forcing
/// [EnergyPreservingForcedVI; KaneMarsdenOrtiz1999; MarsdenWest2001, Sec. 4].
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// Time is an unknown of the step. The extended discrete Lagrangian is the midpoint rule of
/// midpoint-vi with the step h = t1 - t0 free,
///
///   L_d(q0, t0, q1, t1) = h L(q_mid, v),   q_mid = (q0 + q1)/2,   v = (q1 - q0)/h,
///
/// forces F(t, q, v) (dampers F = -C(q) v, loads f(t, q)) enter by the discrete Lagrange-d'Alembert
/// principle in extended phase space: the virtual work of F along (delta q, delta t) is
/// F.(delta q - v delta t), discretized at the midpoint, F_mid = F(t0 + h/2, q_mid, v), as
/// f_d^- = f_d^+ = h/2 F_mid for delta q0, delta q1 and P^- = P^+ = -1/2 F_mid.(q1 - q0) for
/// delta t0, delta t1. The constraints enter as in midpoint-vi (RATTLE, steppers/evi.hpp); their
/// impulses mu = h lambda multiply g(q_k) alone, so the variations in t do not see them. The
/// variations in q give midpoint-vi's equations, those in t (re-derived from the principle: the
/// extract of [EnergyPreservingForcedVI] loses its eqs. (55)-(62)) the discrete energy balance
///
///   E(q_mid, v) - 1/2 W = E_k,      E(q, v) = v.dT/dv - T + V = T(q, v) + V(q),
///   W = F_mid.(q1 - q0),            E_{k+1} = E(q_mid, v) + 1/2 W,
///
/// so that E_{k+1} - E_k = W: the discrete energy E_k (the energy of the last step's midpoint plus
/// half its work, [EnergyPreservingForcedVI]'s modified discrete energy) changes by the discrete
/// work of the forces, and is conserved without them. One step solves for (q1, v1, mu, nu, h):
/// x = (dq, v1, mu, nu) as in midpoint-vi, q1 = q0 + dq, and the global unknown h:
///
///   R_q = -p0 - D_1 L_d - f_d^- + G(q0)^T mu                                    (d)
///       = -p0 - h/2 dT/dq + dT/dv + h/2 DV + 1/2 C(q_mid) dq - h/2 f + G(q0)^T mu
///   R_p = M(q1) v1 - D_2 L_d - f_d^+ + G(q1)^T nu                               (d)
///       = M(q1) v1 - h/2 dT/dq - dT/dv + h/2 DV + 1/2 C(q_mid) dq - h/2 f + G(q1)^T nu
///   R_g = g(q1),   R_nu = G(q1) v1                                               (m each)
///   R_E = T(q_mid, v) + V(q_mid) + 1/2 dq.C(q_mid) dq / h - 1/2 f.dq - E_k        (1)
///
/// (dT/dq, dT/dv at (q_mid, v); f = f(t0 + h/2, q_mid)). Every row depends on h, so h couples the
/// whole system: its Newton tangent is the sparse midpoint-vi matrix A bordered by the column
/// dR/dh and the row dR_E/dx, solved by block elimination with A's factorization
/// (solvers/bordered_solver.hpp), never densified. The kernels write both borders: per element,
///   inertia:   dR_q/dh = -1/2 dT/dq + 1/2 D_qv T v - M v/h,  dR_p/dh = ... + M v/h,
///              dR_E/d dq = 1/2 dT/dq + dT/dv / h,  dR_E/dh = -v.dT/dv / h = -2T/h;
///   potential: dR_q/dh = dR_p/dh = 1/2 DV,  dR_E/d dq = 1/2 DV;
///   damper:    dR_E/d dq = C dq / h + 1/(4h) (d(C dq)/dq)^T dq,  dR_E/dh = -1/2 dq.C dq / h^2;
///   load:      dR_q/dh = dR_p/dh = -1/2 f,  dR_E/d dq = -1/2 f - 1/4 (df/dq)^T dq.
/// A load's rate df/dt is not part of the engine's ExternalLoad interface, so its terms
/// -h/4 df/dt (in dR/dh) and -1/4 df/dt.dq (in dR_E/dh) are missing from the tangent: Newton then
/// converges linearly, at a rate of about h |df/dt| / |f|, to the same solution.
///
/// The step: from a state carrying E_k (State::discrete_energy), the step size is the solution's
/// h, of the sign of the h asked (Newton's first guess; the runner passes the last step's size)
/// and within a factor 4 of it (a larger change is a jump to another root of R_E: the step size
/// changes by a fraction of a percent per step while the motion goes on). When the equations have
/// no such solution near the guess (Newton converges to another h, or fails), the step fails as a
/// Newton failure: a step is refined into two steps from the guess h/2, and the run ends with the
/// message when the refinement is exhausted. From a state
/// without E_k (initial values, another scheme's state) the step is the fixed midpoint step of
/// size h: R_E is replaced by h_unknown - h, and its solution sets E_1 (as [EnergyPreservingForcedVI],
/// Sec. 5.1.3, which chooses the initial step and lets the discrete energy follow from it).
///
/// Properties: symplectic in the extended phase space and momentum-conserving as midpoint-vi
/// (the symmetries act on q alone); E_k conserved to the Newton tolerance without forces, and
/// E_{k+1} - E_k = W_k with them; g(q1) = 0 and G(q1) v1 = 0 at Newton tolerance; symmetric (a
/// step with -h from the result returns). The step equations grow ill-conditioned as h shrinks:
/// R_E and the momentum rows agree to O(h^2) [KaneMarsdenOrtiz1999], so the tangent's condition
/// number grows like 1/h^2; Newton estimates it at every step (StepReport::condition_estimate).
/// The discrete energy is E(h) = H(q, p) + e_2 h^2 + O(h^3) along a fixed step from (q, p), with
/// e_2 = -(v.D^2V v + DV.M^-1 DV)/8 for a constant M (docs/sem_vi.md): the step size follows
/// h^2 ~ (E_k - H)/e_2, and where e_2 changes sign along the motion (a particle crossing the top of
/// a potential barrier) the equations lose their solution and the run stops there.
///
/// Requirements (else StepperRefusal naming the element), as midpoint-vi: every coordinate in
/// exactly one inertia element, constant ones invertible; a solver other than CHOLMOD. Any
/// potential, constraint, damper or load.
/// State after a step: q = q1, v = v1, p = M(q1) v1, lambda = mu / h, t = t0 + h,
/// discrete_energy = E_{k+1}.
struct SymplecticEnergyMomentumScheme;
using SymplecticEnergyMomentumIntegrator = SchemeStepper<SymplecticEnergyMomentumScheme>;

}  // namespace noether
