#pragma once
/// [KinonBetschSchneider2023, Sec. 5.1]: a heavy symmetric top with its tip fixed, in steady precession.
#include <numbers>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// The data of [KinonBetschSchneider2023, Sec. 5.1] (SI units). The top is a cone (density 2700,
/// height a = 0.1, base radius r = a/2) with m = rho pi r^2 a / 3 = 0.7069 and, eq. (62a),
/// J1 = J2 = 3/80 m (4 r^2 + a^2),
/// J3 = 3/10 m r^2: the cone's principal moments about its CENTRE OF MASS (about the apex J1 would
/// be 3/5 m (r^2/4 + a^2)); for r = a/2 all three equal 5.3014e-4. Its centre of mass lies on the
/// symmetry axis at l = 3/4 a = 0.075 from the tip.
struct GyroscopicTopParameters {
  double mass = 0.7069;
  double transverse_inertia = 5.3014e-4;  ///< J1 = J2 about the centre of mass
  double axial_inertia = 5.3014e-4;       ///< J3 about the symmetry axis
  double tip_distance = 0.075;            ///< l, centre of mass to tip
  double tilt = std::numbers::pi / 3;     ///< alpha0, initial rotation of the body about e1
  double precession_rate = 10.0;          ///< omega_p
  double gravity = 9.81;                  ///< g, along -e3
};

/// Spin rate omega_s of steady precession at the initial tilt, [KinonBetschSchneider2023, eq. (66)]
/// (after [GoldsteinClassicalMechanics], p. 221):
///   omega_s = m g l / (J3 omega_p) + (J1 + m l^2 - J3) / J3 * omega_p cos(alpha0)   (135.6/s for the defaults).
double steady_precession_spin_rate(const GyroscopicTopParameters& p);

/// Height l cos(alpha0) of the centre of mass in steady precession (0.0375 m for the defaults).
double steady_precession_height(const GyroscopicTopParameters& p);

/// One director body "top" with its origin at the centre of mass and d3 along the symmetry axis
/// ([KinonBetschSchneider2023, eq. (60)]: Mbar = diag(m, E1, E2, E3), E_i = (J_j + J_k - J_i)/2 from
/// the moments about the centre of mass), the spherical joint "tip" holding the body point
/// X = (0, 0, -l) at the world
/// origin (eq. 64: phi - l d3 = 0), and gravity. Initial state: R0 = rotation by alpha0 about e1
/// (eq. 67), so phi = l d3 = l (0, -sin alpha0, cos alpha0); angular velocity
/// omega0 = omega_p e3 + omega_s d3 (eq. 65) with omega_s from eq. (66); phi' = omega0 x phi,
/// d_i' = omega0 x d_i (eq. 68). Probe "com": the centre of mass. Throws std::invalid_argument for
/// invalid body data (naming the value), l <= 0 or omega_p = 0.
Model build_gyroscopic_top(const GyroscopicTopParameters& p);

}  // namespace noether
