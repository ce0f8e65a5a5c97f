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
/// [Kosmas2020, eq. (8)] for q1 and lambda, then sets p1 by the constrained discrete Legendre
/// transform (RATTLE's; [HairerLubichWanner2006, Sec. VII.1.4]):
///
///   p0 + D_1 L_d(q0, q1) + f_d^-(q0, q1) - h G(q0)^T lambda = 0,     g(q1) = 0,
///   p1 = D_2 L_d(q0, q1) + f_d^+(q0, q1) - G(q1)^T nu,               G(q1) M(q1)^{-1} p1 = 0.
///
/// The projection by nu moves no position: the next step's lambda takes it up, so q_k are those
/// of eq. (8) with p1 = D_2 L_d (measured: the same q(T) on the double pendulum, to the six digits compared).
/// Without it p1 keeps a normal component O(h |v|^2): G v = 58 and an energy error of 16 % on the
/// top at h = 0.005, against G v = 1e-13 and 1e-6 with it.
///
/// with forces F(t, q, v) (viscous F = -C(q) v, loads f(t, q)) by the discrete Lagrange-d'Alembert
/// principle [MarsdenWest2001, Sec. 3.2]: f_d^- = h sum_j w_j g1_j F^j, f_d^+ = h sum_j w_j g2_j F^j,
/// at t^j = t0 + tau_j h. Unknowns x = (dq, v1, mu, nu), q1 = q0 + dq, p1 = M(q1) v1, mu = h lambda
/// (2d + 2m); residual
///
///   R_q = -p0 - D_1 L_d - f_d^- + G(q0)^T mu      (d)      R_g = g(q1)       (m)
///   R_p = M(q1) v1 - D_2 L_d - f_d^+ + G(q1)^T nu (d)      R_nu = G(q1) v1   (m),
///
/// whose terms are local to the elements, each evaluated at the S configurations q^j (R_q with g1,
/// R_p with g2 in place of g1):
///   inertia:      -h sum_j w_j (g1_j dT/dq + g1'_j dT/dv)(q^j, v^j)   (constant M: -sum_j w_j h g1'_j M v^j)
///   potential:     h sum_j w_j g1_j DV(q^j)
///   dissipation:   h sum_j w_j g1_j C(q^j) v^j,    load: -h sum_j w_j g1_j f(t^j, q^j)
///   actuator:     -h (sum_j w_j g1_j) F(step, q0, q1)   (engine/actuator.hpp: a force of the whole step,
///                  constant over it; its work F.(q1 - q0) is what the step reports)
///   constraint:    G(q0)^T mu, g(q1), G(q1)^T nu, G(q1) v1.
///
/// The choices the extracted [Kosmas2020] leaves open (its eq. (10) fixes only C^0 = 0, C^1 = 1):
///   - Nodes: S = 1, the midpoint (tau = 1/2, w = 1): no one-point rule can hold both end points,
///     and the midpoint is the symmetric one, exact for linear integrands (eq. (17) for m <= 1);
///     S >= 2, the S-point Gauss-Lobatto rule (steppers/lobatto.hpp): its nodes include 0 and 1 as
///     eq. (10) asks, it meets eq. (17) for m <= 2S - 3 >= S - 1, and it is symmetric, so the
///     scheme is symmetric. S = 2 is the trapezoidal rule (RATTLE for omega = 0),
///     S = 3 Simpson's.
///   - Frequency: u = omega h with omega (rad per unit time) the user's estimate of the motion's
///     dominant frequency, 0 by default (linear interpolation). [Kosmas2020] refers to frequency
///     estimation for u; a fixed omega keeps L_d one function of (q0, q1), so the scheme stays
///     variational. |omega h| < pi is required (sin u = 0 there).
///
/// Properties: symplectic (a variational integrator); g(q1) = 0 and G(q1) v1 = 0 at Newton
/// tolerance. Momentum maps (discrete Noether theorem): the interpolation commutes with rotations
/// about the origin for every omega, and with translations only for omega = 0 (g1 + g2 = 1); so
/// the angular momentum about the origin of a system symmetric about it is conserved exactly for
/// every omega, linear momentum (and angular momentum about other points) for omega = 0 only. The
/// energy is not conserved exactly; its error stays bounded without drift.
/// Order: the curve has only the two end points as unknowns, so however exact the quadrature the
/// scheme is of order 2, for every S and omega; more nodes and a fitting omega shrink the error
/// constant, not the order (tests/steppers/test_evi.cpp; docs/evi.md). On a harmonic motion of
/// frequency omega the interpolation spans the solution and the error is the quadrature's alone.
///
/// Rheonomic constraints g(q, t) = 0 (driven joints): the constraint rows hold at the nodes at
/// their times, as RATTLE's for time-dependent constraints (steppers/rattle_constraint.hpp):
/// impulses G(q0, t0)^T mu and G(q1, t1)^T nu, g(q1, t1) = 0, G(q1, t1) v1 + g_t(q1, t1) = 0. The
/// scheme keeps no discrete energy balance; the drive's work it reports is its impulses' work,
/// mu.g_t(q0, t0) + nu.g_t(q1, t1) (the trapezoidal rule of the power lambda.g_t), so the balance's
/// residual is its energy error measured against that work.
///
/// Requirements (else StepperRefusal naming the element): every coordinate in exactly one inertia
/// element, constant ones invertible (checked at construction; M(q) must be invertible where the
/// motion goes, or Newton's matrix is singular); a solver other than CHOLMOD. Any potential,
/// constraint, damper or load.
/// State after a step: q = q1, v = v1, p = M(q1) v1, lambda = mu / h.
struct ExponentialScheme;
using ExponentialVariationalIntegrator = SchemeStepper<ExponentialScheme>;

/// The midpoint variational integrator [MarsdenWest2001, Sec. 2.5; EnergyPreservingForcedVI]:
/// evi with S = 1 and omega = 0, L_d = h L((q0 + q1)/2, (q1 - q0)/h), f_d^- = f_d^+ =
/// h/2 F((q0 + q1)/2, (q1 - q0)/h) at t0 + h/2, with the same constraints and Legendre transform.
struct MidpointScheme;
using MidpointVariationalIntegrator = SchemeStepper<MidpointScheme>;

}  // namespace noether
