/// Three particles in space held by one invariant, non-quadratic constraint
/// Phi = |r1 - r2|^4 + |r2 - r3|^2 - c = 0 [DiscreteDerivativesEM]: energy, linear and angular
/// momentum are conserved by the motion; which of them the energy-momentum scheme (livens-em here
/// is its eqs. (10)-(12): constant M, p_mid = M v_mid) keeps depends on the discrete gradient of
/// Phi (`--set derivative=`, joints/distance_power_constraint.hpp).
#include <array>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/joints/distance_power_constraint.hpp>

namespace noether {
namespace {

constexpr std::array kDerivatives{DiscreteGradientKind::scaled_midpoint, DiscreteGradientKind::average_vector_field,
                                  DiscreteGradientKind::gonzalez, DiscreteGradientKind::partitioned};

ModelDescription describe(const ParameterValues& p) {
  const auto kind = kDerivatives[static_cast<std::size_t>(p.at("derivative"))];
  const std::array masses{p.at("m1"), p.at("m2"), p.at("m3")};
  Vector q(9), v(9);
  q << 0.0, 0.0, 0.0, 1.0, 0.2, 0.0, 1.5, 1.0, 0.3;
  v << 0.3, -0.2, 0.5, -0.4, 0.6, 0.1, 0.2, 0.1, -0.7;
  v *= p.at("speed");
  // c = Phi of the initial positions; the velocities made tangent: v -= G^T (G v)/(G G^T).
  const std::vector<DistancePowerTerm> terms{{0, 1, 1.0, 2}, {1, 2, 1.0, 1}};
  const DistancePowerConstraint unshifted("phi", {BlockId{0}, BlockId{1}, BlockId{2}}, 3, terms, 0.0, kind);
  Vector phi0(1);
  unshifted.calc_value(q, phi0);
  Matrix G(1, 9);
  unshifted.calc_jacobian(q, G);
  v -= G.transpose() * ((G * v)(0) / G.squaredNorm());

  ModelDescription d;
  std::vector<std::string> names;
  for (Index i = 0; i < 3; ++i) {
    names.push_back("particle" + std::to_string(i + 1));
    d.bodies.push_back(PointMassDescription{names.back(), masses[static_cast<std::size_t>(i)], q.segment<3>(3 * i),
                                            v.segment<3>(3 * i)});
  }
  d.constraints = {DistancePowerConstraintDescription{
      "phi", names, {{names[0], names[1], 1.0, 2}, {names[1], names[2], 1.0, 1}}, phi0(0), kind}};
  d.invariants = {{"linear_momentum", Momentum::linear, {}}, {"angular_momentum", Momentum::angular, {}}};
  return d;
}

}  // namespace

Scenario constrained_particles_scenario() {
  const ParameterRange positive = ParameterRange::positive();
  return {"constrained-particles",
          "DiscreteDerivativesEM: 3 particles, Phi = |r12|^4 + |r23|^2 - c; energy and momentum drifts per discrete "
          "gradient (livens-em)",
          {.h = 0.01, .t_end = 10.0},
          {{"derivative", 0, "discrete gradient of Phi", {"scaled-midpoint", "avf", "gonzalez", "partitioned"},
            ParameterRange::count(0, 3)},
           {"m1", 1.0, "mass of particle 1", {}, positive},
           {"m2", 2.0, "mass of particle 2", {}, positive},
           {"m3", 1.5, "mass of particle 3", {}, positive},
           {"speed", 1.0, "factor on the initial velocities (0.3, -0.2, 0.5), (-0.4, 0.6, 0.1), (0.2, 0.1, -0.7)"}},
          describe};
}

}  // namespace noether
