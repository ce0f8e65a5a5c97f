#pragma once
/// [KinonBetschSchneider2023, Sec. 5.1]: a heavy symmetric top with its tip fixed, in steady precession.
#include <numbers>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// The data of [KinonBetschSchneider2023, Sec. 5.1] (SI units): the top is a solid cone of density
/// 2700, height a = 0.1 and base radius r = a/2, its tip fixed at the world origin.
struct GyroscopicTopParameters {
  double density = 2700.0;
  double height = 0.1;                  ///< a, tip to base
  double radius = 0.05;                 ///< r of the base
  double tilt = std::numbers::pi / 3;   ///< alpha0, initial rotation of the body about e1
  double precession_rate = 10.0;        ///< omega_p
  double gravity = 9.81;                ///< g, along -e3
};

/// Mass and principal moments about the centre of mass of a solid cone of height a and base radius r
/// ([KinonBetschSchneider2023, eq. (62a)]): m = rho pi r^2 a / 3, J1 = J2 = 3/80 m (4 r^2 + a^2),
/// J3 = 3/10 m r^2 (about the apex J1 would be 3/5 m (r^2/4 + a^2)); its centre of mass lies on the
/// axis at l = 3/4 a from the tip. For the paper's cone m = 0.706858347..., J1 = J3 = 5.30143760...e-4
/// (r = a/2 makes them equal), l = 0.075.
struct ConeInertia {
  double mass, transverse_inertia, axial_inertia, tip_distance;
};
ConeInertia cone_inertia(const GyroscopicTopParameters& p);

/// Spin rate omega_s of steady precession at the initial tilt, [KinonBetschSchneider2023, eq. (66)]
/// (after [GoldsteinClassicalMechanics], p. 221):
///   omega_s = m g l / (J3 omega_p) + (J1 + m l^2 - J3) / J3 * omega_p cos(alpha0)   (135.6/s for the defaults).
double steady_precession_spin_rate(const GyroscopicTopParameters& p);

/// Height l cos(alpha0) of the centre of mass in steady precession (0.0375 m for the defaults).
double steady_precession_height(const GyroscopicTopParameters& p);

/// One director body "top" with its origin at the centre of mass and d3 along the symmetry axis
/// ([KinonBetschSchneider2023, eq. (60)]: Mbar = diag(m, E1, E2, E3), E_i = (J_j + J_k - J_i)/2 from
/// the moments about the centre of mass, cone_inertia), the spherical joint "tip" holding the body
/// point X = (0, 0, -l) at the world origin (eq. 64: phi - l d3 = 0), and gravity. Initial state:
/// R0 = rotation by alpha0 about e1 (eq. 67), so phi = l d3 = l (0, -sin alpha0, cos alpha0);
/// angular velocity omega0 = omega_p e3 + omega_s d3 (eq. 65) with omega_s from eq. (66);
/// phi' = omega0 x phi, d_i' = omega0 x d_i (eq. 68). Probe "com": the centre of mass. Throws
/// std::invalid_argument for a density, height or radius that is not > 0, or omega_p = 0.
ModelDescription gyroscopic_top_description(const GyroscopicTopParameters& p);
Model build_gyroscopic_top(const GyroscopicTopParameters& p);

}  // namespace noether
