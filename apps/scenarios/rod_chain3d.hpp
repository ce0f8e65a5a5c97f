#pragma once
/// A hanging 3D chain of slender rods: a singular mass matrix (no axial inertia) that only the
/// Livens stepper integrates.
#include <Eigen/Core>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

struct RodChainParameters {
  int rods = 5;             ///< n >= 1
  double mass = 1.0;        ///< m of each uniform rod
  double length = 0.5;      ///< l of each rod
  double gravity = 9.81;    ///< g, along -e3
  double tilt = 0.6;        ///< initial angle of the straight chain from the downward vertical, in the x-z plane
  double swing_rate = 0.0;  ///< initial angular velocity of the whole chain about e2 (in the x-z plane)
  double whirl_rate = 0.5;  ///< initial angular velocity of the whole chain about e3 (out of the x-z plane)
  /// n of the spin gauge d1 . n = 0, a unit vector never along a rod (default e2, normal to the
  /// main plane of motion).
  Eigen::Vector3d gauge_normal = Eigen::Vector3d::UnitY();
};

/// n director bodies "rod1" ... "rodn" with their origin at the centre and d3 along the rod, each a
/// slender uniform rod J_c = diag(J, J, 0), J = m l^2/12. Then Mbar = diag(m, 0, 0, J) (Euler tensor
/// E = tr(J_c)/2 I - J_c): the directors d1, d2 carry no mass and M is singular (rank 6 of 12 per rod).
/// Spherical joints: "hang" holds rod1's top end X = (0, 0, -l/2) at the world origin, "joint k" joins
/// the bottom end of rod k to the top end of rod k+1. Gravity on every rod.
///
/// Spin gauge "rodk.gauge": d1 . n = 0 (one linear equation per rod, n = gauge_normal). Nothing in
/// the energy depends on the massless d1, d2, so without it the spin of a rod about its own axis is
/// undetermined and the Livens Newton matrix is exactly singular (the spin is a null vector). The
/// gauge is workless for the massive coordinates (phi, d3): for every d3 not parallel to n, d1 is
/// fixed (up to sign) as the unit vector normal to d3 and n, and d2 = d3 x d1; so the constraint
/// surface is a graph over the (phi, d3) configurations and the motion of phi and d3 is the one
/// without gauge. In the step equations too: the rows of d1 and d2 read
/// sum (multiplier x constraint gradient) = 0 with the midpoint vectors d1, d2, d3 and n spanning
/// R^3, which forces the multipliers of d1.d1, d2.d2, d1.d2, d1.d3, d2.d3 and of the gauge to
/// vanish; no force reaches phi or d3 (a test compares two gauges). The gauge is singular only
/// for a rod along n, which the chain, moving mainly in the x-z plane, does not reach for n = e2.
///
/// Initial state: the straight chain from the origin along d3 = (sin tilt, 0, -cos tilt), with
/// d1 = (d3 x n)/|d3 x n| and d2 = d3 x d1 (for n = e2: d1 = (cos tilt, 0, sin tilt), d2 = -e2),
/// turning rigidly about the origin with Omega = swing_rate e2 + whirl_rate e3, each rod's spin
/// about its axis chosen so the gauge's velocity constraint (w x d1).n = 0 holds: q0 and v0 meet
/// every constraint. Probe "tip": the free end of the last rod. Throws std::invalid_argument for
/// rods < 1, a gauge normal that is not a unit vector or lies along the initial rods, or invalid
/// body data.
ModelDescription rod_chain3d_description(const RodChainParameters& p);
Model build_rod_chain3d(const RodChainParameters& p);

}  // namespace noether
