/// [KinonBetsch2023, Sec. 6.2, Table 2]: a 3D spring pendulum in spherical coordinates (r, theta, phi),
/// M(q) = m diag(1, r^2, r^2 sin^2 theta), V = 1/2 EA eps^2 with eps = (r^2 - l0^2)/(2 l0^2).
#include <cmath>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

/// V = 1/2 EA eps^2, eps = (r^2 - l0^2)/(2 l0^2), as a polynomial in u = r - l0 (r^2 - l0^2 = u (2 l0 + u)):
/// V = EA/(8 l0^4) (4 l0^2 u^2 + 4 l0 u^3 + u^4), accurate near the rest length.
PolynomialPotentialDescription strain_energy(double EA, double l0) {
  const double f = EA / (8.0 * l0 * l0 * l0 * l0);
  return {"spring", "pendulum", "r", l0, {0.0, 0.0, 4.0 * l0 * l0 * f, 4.0 * l0 * f, f}};
}

ModelDescription describe(const ParameterValues& p) {
  ModelDescription d;
  d.bodies = {SphericalPointMassDescription{"pendulum", p.at("m"),
                                            Eigen::Vector3d(p.at("r_0"), p.at("theta_0"), p.at("phi_0")),
                                            Eigen::Vector3d(p.at("vr_0"), p.at("vtheta_0"), p.at("vphi_0"))}};
  d.forces = {strain_energy(p.at("EA"), p.at("l0"))};
  d.probes = {PointProbeDescription{"mass", "pendulum", {}}};
  return d;
}

}  // namespace

Scenario spring_pendulum_scenario() {
  const ParameterRange positive = ParameterRange::positive();
  return {"spring-pendulum",
          "KinonBetsch2023 Table 2: nonlinear spring pendulum in spherical coordinates, M(q) singular at theta = k pi (livens-em)",
          {.h = 0.01, .t_end = 1.0},
          {{"m", 1.0, "mass", {}, positive},
           {"EA", 300.0, "axial stiffness", {}, ParameterRange::nonnegative()},
           {"l0", 1.0, "rest length", {}, positive},
           {"r_0", 1.05, "initial r", {}, positive},
           {"theta_0", M_PI / 2, "initial theta"},
           {"phi_0", 0.0, "initial phi"},
           {"vr_0", 0.0, "initial r'"},
           {"vtheta_0", 1.0, "initial theta'"},
           {"vphi_0", 1.0, "initial phi'"}},
          describe};
}

}  // namespace noether
