/// [KinonBetsch2023, Sec. 6.2, Table 2]: a 3D spring pendulum in spherical coordinates (r, theta, phi),
/// M(q) = m diag(1, r^2, r^2 sin^2 theta), V = 1/2 EA eps^2 with eps = (r^2 - l0^2)/(2 l0^2).
#include <cmath>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_potential.hpp>

namespace noether {
namespace {

MassFunction spherical_mass(double m) {
  MassFunction f;
  f.mass = [m](ConstVectorRef q) {
    const double r = q(0), s = std::sin(q(1));
    return Matrix(Vector(Eigen::Vector3d(m, m * r * r, m * r * r * s * s)).asDiagonal());
  };
  f.mass_derivative = [m](ConstVectorRef q, Index i) {
    const double r = q(0), s = std::sin(q(1)), c = std::cos(q(1));
    Eigen::Vector3d d = Eigen::Vector3d::Zero();
    if (i == 0) d << 0, 2 * m * r, 2 * m * r * s * s;
    if (i == 1) d << 0, 0, 2 * m * r * r * s * c;
    return Matrix(Vector(d).asDiagonal());
  };
  f.mass_second_derivative = [m](ConstVectorRef q, Index i, Index j) {
    const double r = q(0), s = std::sin(q(1)), c = std::cos(q(1));
    Eigen::Vector3d d = Eigen::Vector3d::Zero();
    if (i == 0 && j == 0) d << 0, 2 * m, 2 * m * s * s;
    if ((i == 0 && j == 1) || (i == 1 && j == 0)) d << 0, 0, 4 * m * r * s * c;
    if (i == 1 && j == 1) d << 0, 0, 2 * m * r * r * (c * c - s * s);
    return Matrix(Vector(d).asDiagonal());
  };
  return f;
}

PotentialFunction strain_energy(double EA, double l0) {
  PotentialFunction f;
  const double l02 = l0 * l0;
  f.energy = [=](ConstVectorRef q) {
    const double eps = (q(0) * q(0) - l02) / (2 * l02);
    return 0.5 * EA * eps * eps;
  };
  f.gradient = [=](ConstVectorRef q) {
    const double eps = (q(0) * q(0) - l02) / (2 * l02);
    return Vector(Eigen::Vector3d(EA * eps * q(0) / l02, 0, 0));
  };
  f.hessian = [=](ConstVectorRef q) {
    const double eps = (q(0) * q(0) - l02) / (2 * l02);
    Matrix H = Matrix::Zero(3, 3);
    H(0, 0) = EA * (q(0) * q(0) / (l02 * l02) + eps / l02);
    return H;
  };
  return f;
}

Model build(const ParameterValues& p) {
  auto system = std::make_unique<System>();
  const BlockId pendulum = system->add_block("pendulum", {"r", "theta", "phi"});
  system->add(std::make_shared<ConfigurationInertia>("mass", std::vector{pendulum}, 3, spherical_mass(p.at("m"))));
  system->add(std::make_shared<FunctionPotential>("spring", std::vector{pendulum}, 3, strain_energy(p.at("EA"), p.at("l0"))));
  Model model;
  model.initial.q = Vector(Eigen::Vector3d(p.at("r_0"), p.at("theta_0"), p.at("phi_0")));
  model.initial.v = Vector(Eigen::Vector3d(p.at("vr_0"), p.at("vtheta_0"), p.at("vphi_0")));
  model.system = std::move(system);
  model.probes.push_back({"mass", 3, [](const State& s) {
                            const double r = s.q(0), th = s.q(1), ph = s.q(2);
                            return Vector(Eigen::Vector3d(r * std::sin(th) * std::cos(ph), r * std::sin(th) * std::sin(ph),
                                                          r * std::cos(th)));
                          }});
  return model;
}

}  // namespace

Scenario spring_pendulum_scenario() {
  return {"spring-pendulum",
          "KinonBetsch2023 Table 2: nonlinear spring pendulum in spherical coordinates, M(q) singular at theta = k pi (livens-em)",
          {.h = 0.01, .t_end = 1.0},
          {{"m", 1.0, "mass"},
           {"EA", 300.0, "axial stiffness"},
           {"l0", 1.0, "rest length"},
           {"r_0", 1.05, "initial r"},
           {"theta_0", M_PI / 2, "initial theta"},
           {"phi_0", 0.0, "initial phi"},
           {"vr_0", 0.0, "initial r'"},
           {"vtheta_0", 1.0, "initial theta'"},
           {"vphi_0", 1.0, "initial phi'"}},
          build};
}

}  // namespace noether
