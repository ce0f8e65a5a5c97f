/// Three particles in space held by one invariant, non-quadratic constraint
/// Phi = |r1 - r2|^4 + |r2 - r3|^2 - c = 0 [DiscreteDerivativesEM]: energy, linear and angular
/// momentum are conserved by the motion; which of them the energy-momentum scheme (livens-em here
/// is its eqs. (10)-(12): constant M, p_mid = M v_mid) keeps depends on the discrete gradient of
/// Phi (`--set derivative=`, joints/distance_power_constraint.hpp).
#include <Eigen/Geometry>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/distance_power_constraint.hpp>

namespace noether {
namespace {

constexpr std::array kDerivatives{DiscreteGradientKind::scaled_midpoint, DiscreteGradientKind::average_vector_field,
                                  DiscreteGradientKind::gonzalez, DiscreteGradientKind::partitioned};

/// L = sum_i p_i and J = sum_i r_i x p_i of the three particles (3 each).
Vector linear_momentum(const State& s) {
  Eigen::Vector3d total = Eigen::Vector3d::Zero();
  for (Index i = 0; i < 3; ++i) total += s.p.segment<3>(3 * i);
  return total;
}
Vector angular_momentum(const State& s) {
  Eigen::Vector3d total = Eigen::Vector3d::Zero();
  for (Index i = 0; i < 3; ++i) total += Eigen::Vector3d(s.q.segment<3>(3 * i)).cross(Eigen::Vector3d(s.p.segment<3>(3 * i)));
  return total;
}

Model build(const ParameterValues& p) {
  const auto kind = kDerivatives[static_cast<std::size_t>(p.at("derivative"))];
  const std::array masses{p.at("m1"), p.at("m2"), p.at("m3")};
  auto system = std::make_unique<System>();
  std::vector<BlockId> points;
  for (int i = 0; i < 3; ++i) {
    const std::string name = "particle" + std::to_string(i + 1);
    points.push_back(system->add_block(name, {"x", "y", "z"}));
    system->add(std::make_shared<ConstantInertia>(name + ".mass", std::vector{points.back()},
                                                  Matrix(masses[static_cast<std::size_t>(i)] * Matrix::Identity(3, 3))));
  }
  Model model;
  model.initial.q = Vector(9);
  model.initial.q << 0.0, 0.0, 0.0, 1.0, 0.2, 0.0, 1.5, 1.0, 0.3;
  const std::vector<DistancePowerTerm> terms{{0, 1, 1.0, 2}, {1, 2, 1.0, 1}};
  const auto constraint = std::make_shared<DistancePowerConstraint>("phi", points, 3, terms, 0.0, kind);
  Vector phi0(1);
  constraint->calc_value(model.initial.q, phi0);  // c: Phi of the initial positions
  system->add(std::make_shared<DistancePowerConstraint>("phi", points, 3, terms, phi0(0), kind));
  // Velocities with linear and angular momentum, made tangent: v -= G^T (G v)/(G G^T).
  Vector v(9);
  v << 0.3, -0.2, 0.5, -0.4, 0.6, 0.1, 0.2, 0.1, -0.7;
  v *= p.at("speed");
  Matrix G(1, 9);
  constraint->calc_jacobian(model.initial.q, G);
  model.initial.v = v - G.transpose() * ((G * v)(0) / G.squaredNorm());
  model.invariants = {{"linear_momentum", linear_momentum}, {"angular_momentum", angular_momentum}};
  model.system = std::move(system);
  return model;
}

}  // namespace

Scenario constrained_particles_scenario() {
  return {"constrained-particles",
          "DiscreteDerivativesEM: 3 particles, Phi = |r12|^4 + |r23|^2 - c; energy and momentum drifts per discrete "
          "gradient (livens-em)",
          {.h = 0.01, .t_end = 10.0},
          {{"derivative", 0, "discrete gradient of Phi", {"scaled-midpoint", "avf", "gonzalez", "partitioned"}},
           {"m1", 1.0, "mass of particle 1"},
           {"m2", 2.0, "mass of particle 2"},
           {"m3", 1.5, "mass of particle 3"},
           {"speed", 1.0, "factor on the initial velocities (0.3, -0.2, 0.5), (-0.4, 0.6, 0.1), (0.2, 0.1, -0.7)"}},
          build};
}

}  // namespace noether
