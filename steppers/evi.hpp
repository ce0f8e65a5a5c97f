#pragma once
/// The exponential variational integrator [Kosmas2020, eqs. (8), (11)-(17)].
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// A variational integrator whose discrete Lagrangian integrates L = T(q, v) - V(q) along the
/// exponential interpolation of the step (steppers/exponential_interpolation.hpp) by an S-point
/// quadrature [Kosmas2020, eq. (16)]:
///
///   L_d(q0, q1) = h sum_j w_j L(q^j, v^j),   q^j = g1_j q0 + g2_j q1,   v^j = g1'_j q0 + g2'_j q1.
///
/// One step, in momentum form, solves the constrained discrete Euler-Lagrange equations
/// [Kosmas2020, eq. (8)] for q1 and lambda, then sets p1:
///
///   p0 + D_1 L_d(q0, q1) + f_d^-(q0, q1) - h G(q0)^T lambda = 0,     g(q1) = 0,
///   p1 = D_2 L_d(q0, q1) + f_d^+(q0, q1),
///
/// with forces F(t, q, v) (viscous F = -C(q) v, loads f(t, q)) by the discrete Lagrange-d'Alembert
/// principle [MarsdenWest2001, Sec. 3.2]: f_d^- = h sum_j w_j g1_j F^j, f_d^+ = h sum_j w_j g2_j F^j,
/// at t^j = t0 + tau_j h. Unknowns x = (dq, mu), q1 = q0 + dq, mu = h lambda (d + m); residual
///
///   R_q = -p0 - D_1 L_d - f_d^- + G(q0)^T mu      (d)      R_g = g(q1)      (m),
///
/// whose terms are local to the elements, each evaluated at the S configurations q^j:
///   inertia:      -h sum_j w_j (g1_j dT/dq + g1'_j dT/dv)(q^j, v^j)   (constant M: -sum_j w_j h g1'_j M v^j)
///   potential:     h sum_j w_j g1_j DV(q^j)
///   dissipation:   h sum_j w_j g1_j C(q^j) v^j,    load: -h sum_j w_j g1_j f(t^j, q^j)
///   constraint:    G(q0)^T mu, g(q1): no constraint Hessian enters the Newton matrix.
///
/// The choices the extracted [Kosmas2020] leaves open (its eq. (10) fixes only C^0 = 0, C^1 = 1):
///   - Nodes: S = 1, the midpoint (tau = 1/2, w = 1): no one-point rule can hold both end points,
///     and the midpoint is the symmetric one, exact for linear integrands (eq. (17) for m <= 1);
///     S >= 2, the S-point Gauss-Lobatto rule (steppers/lobatto.hpp): its nodes include 0 and 1 as
///     eq. (10) asks, it meets eq. (17) for m <= 2S - 3 >= S - 1, and it is symmetric, so the
///     scheme is symmetric. S = 2 is the trapezoidal rule (SHAKE; explicit but for the
///     constraints), S = 3 Simpson's.
///   - Frequency: u = omega h with omega (rad per unit time) the user's estimate of the motion's
///     dominant frequency, 0 by default (linear interpolation). [Kosmas2020] refers to frequency
///     estimation for u; a fixed omega keeps L_d one function of (q0, q1), so the scheme stays
///     variational. |omega h| < pi is required (sin u = 0 there).
///
/// Properties: symplectic (a variational integrator); constraints g(q1) = 0 at Newton tolerance.
/// With omega = 0, L_d is invariant under translations and rotations of q when L is, so linear and
/// angular momentum are conserved exactly (discrete Noether theorem); omega > 0 breaks that
/// (g1 + g2 != 1). The energy is not conserved exactly; its error stays bounded without drift.
/// Order: the curve has only the two end points as unknowns, so however exact the quadrature the
/// scheme is of order 2 (S >= 2, or S = 1) for omega = 0; more nodes shrink the error constant,
/// not the order (measured in tests/steppers/test_evi.cpp and docs/evi.md). p1 = D_2 L_d is not
/// projected onto G(q1) M^{-1} p = 0 [Kosmas2020, eq. (8)]: the positions are those of RATTLE,
/// the velocity v1 = M(q1)^{-1} p1 has a normal component O(h).
///
/// Requirements (else StepperRefusal naming the element): every coordinate in exactly one inertia
/// element, with M invertible (constant M checked at construction, M(q) at each step end, for v1);
/// a solver other than CHOLMOD. Any potential, constraint, damper or load.
/// State after a step: q = q1, p = p1, v = M(q1)^{-1} p1, lambda = mu / h.
struct ExponentialScheme;
using ExponentialVariationalIntegrator = SchemeStepper<ExponentialScheme>;

/// evi's parameters: S (quadrature points, default 2) and omega (frequency, default 0).
std::span<const SchemeParameter> evi_parameters();

}  // namespace noether
