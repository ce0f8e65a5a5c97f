#pragma once
/// The exact motion of the N-four-bar (make_bar_lattice(n, 1), scenario `nfourbar`) released in
/// its shear motion: it stays a parallelogram, a system of one degree of freedom whose solution is
/// a Jacobi amplitude.
#include <Eigen/Core>

#include <noether/apps/mechanisms/generators.hpp>

namespace noether::work_precision {

/// Every crank (the n + 1 verticals, hinged to the ground l apart) turns by the same angle theta
/// from +x; the n couplers translate with the cranks' tops. With bars of mass m, length l and
/// moment of inertia m l^2/12 about their centre:
///
///   T = 1/2 I theta'^2,   I = m l^2 (n + (n + 1)/3)    (cranks about their pivot, couplers translating)
///   V = c sin(theta),     c = m g l (n + (n + 1)/2)    (crank centres at l/2 sin(theta), couplers at l sin(theta))
///
/// With psi = (theta + pi/2)/2 (half the angle from the hanging position) the energy E gives
/// psi'^2 = lambda^2 (1 - k^2 sin^2 psi), lambda^2 = (E + c)/(2 I), k^2 = 2 c/(E + c). The release
/// (theta = pi/2, theta' = -top_speed/l) has E > c: the cranks turn over the top and never stop
/// (k < 1), psi decreases from pi/2, and F(psi(t), k) = K(k) - lambda t, i.e.
///
///   psi(t) = am(K(k) - lambda t, k),   theta(t) = 2 psi(t) - pi/2,
///
/// F the incomplete elliptic integral of the first kind, K = F(pi/2), am its inverse (the Jacobi
/// amplitude; here by Newton's method on std::ellint_1, to round-off).
class ParallelogramMotion {
 public:
  ParallelogramMotion(Index cells, double top_speed = 1.0, const BarProperties& bars = {});

  /// theta(t), the angle of every crank from +x.
  double crank_angle(double t) const;
  /// Probe B0, the top of the first crank: l (cos theta, sin theta) (its pivot is the origin).
  Eigen::Vector2d top_of_first_crank(double t) const;

 private:
  double length_;
  double k_;       ///< modulus of the elliptic integrals
  double lambda_;  ///< rate of F(psi(t), k), 1/s
  double quarter_period_;  ///< K(k)
};

/// psi with F(psi, k) = u (the Jacobi amplitude am(u, k)) for 0 <= k < 1, to round-off.
double jacobi_amplitude(double u, double k);

}  // namespace noether::work_precision
