#pragma once
/// The exponential (trigonometric) interpolation of a step [Kosmas2022, eqs. (11)-(14)]: the curve
/// between q0 at t0 and q1 at t0 + h,
///
///   q(tau)  = g1(tau) q0 + g2(tau) q1,   g1 = sin((1 - tau) u) / sin u,   g2 = sin(tau u) / sin u,
///
/// tau = (t - t0)/h in [0, 1], u = omega h the phase over the step of a frequency omega. It spans
/// the motions cos(omega t), sin(omega t) exactly and meets the continuity conditions (15)
/// g1(0) = g2(1) = 1, g1(1) = g2(0) = 0; u -> 0 gives linear interpolation.
///
/// Written without cancellation, so that u = 0 and u -> 0 are the same formula (sinc x = sin x / x,
/// sinc 0 = 1; no 0/0, no 1 - cos):
///
///   g1 = (1 - tau) sinc((1 - tau) u) / sinc u,       g2 = tau sinc(tau u) / sinc u,
///   h g1' = -cos((1 - tau) u) / sinc u,              h g2' = cos(tau u) / sinc u,
///   h (g1' + g2') = 2 sin(u/2) sin((1/2 - tau) u) / sinc u,
///
/// so that with the increment dq = q1 - q0 the velocity of the curve,
///   h q'(tau) = h g2' dq + h (g1' + g2') q0,
/// carries no difference of two nearly equal terms: its second term is O(u^2) |q0| exactly.
#include <vector>

#include <noether/steppers/lobatto.hpp>

namespace noether {

/// The interpolation at one quadrature node of a step.
struct InterpolationNode {
  double tau;            ///< the node, (t - t0)/h
  double weight;         ///< its quadrature weight (the weights sum to 1)
  double g1, g2;         ///< q(tau) = g1 q0 + g2 q1
  double g1_rate;        ///< h g1'(tau) = -dq'/dq0 h (q1 fixed)
  double g2_rate;        ///< h g2'(tau) = dq'/dq1 h
  double sum_rate;       ///< h (g1' + g2'): h q'(tau) = g2_rate dq + sum_rate q0
};

/// The nodes of `rule` for the phase u = omega h. Precondition: |u| < pi (sin u != 0 on the step;
/// the scheme checks it and says which h and omega violate it).
std::vector<InterpolationNode> exponential_interpolation(const QuadratureRule& rule, double u);

/// sin(x)/x, 1 at x = 0.
double sinc(double x);

}  // namespace noether
