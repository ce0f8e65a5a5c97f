/// The damped harmonic oscillator [EnergyPreservingForcedVI, Sec. 5]: L = 1/2 m q'^2 - 1/2 k q^2
/// with the viscous force F = -c q', c = 2 zeta sqrt(k m) (ConstantDamping). The probe `exact` is the closed form
///   q(t) = exp(-zeta w t) (q0 cos(w_d t) + (v0 + zeta w q0)/w_d sin(w_d t)),  w = sqrt(k/m),
///   w_d = w sqrt(1 - zeta^2),
/// for |zeta| < 1 (negative zeta: an amplified oscillation).
#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/format.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/viscous_damper.hpp>

namespace noether {
namespace {

Model build(const ParameterValues& p) {
  const double m = p.at("m"), k = p.at("k"), zeta = p.at("zeta"), q0 = p.at("q0"), v0 = p.at("v0");
  if (!(m > 0 && k > 0 && std::abs(zeta) < 1)) {
    std::string message = "damped-oscillator needs m > 0, k > 0 and |zeta| < 1 (an oscillation), got m = ";
    message += format_number(m) + ", k = " + format_number(k) + ", zeta = " + format_number(zeta);
    throw std::invalid_argument(message);
  }
  auto system = std::make_unique<System>();
  const BlockId mass = system->add_block("mass", {"q"});
  system->add(std::make_shared<ConstantInertia>("mass", std::vector{mass}, Matrix(m * Matrix::Identity(1, 1))));
  PotentialFunction spring;
  spring.nonlinearity = Nonlinearity::quadratic;
  spring.energy = [k](ConstVectorRef q) { return 0.5 * k * q(0) * q(0); };
  spring.gradient = [k](ConstVectorRef q) { return Vector(k * q); };
  spring.hessian = [k](ConstVectorRef) { return Matrix(Matrix::Constant(1, 1, k)); };
  system->add(std::make_shared<FunctionPotential>("spring", std::vector{mass}, 1, spring));
  const double c = 2 * zeta * std::sqrt(k * m);
  if (c != 0.0) system->add(std::make_shared<ConstantDamping>("damper", std::vector{mass}, Matrix::Constant(1, 1, c)));
  Model model;
  model.initial.q = Vector::Constant(1, q0);
  model.initial.v = Vector::Constant(1, v0);
  const double w = std::sqrt(k / m), w_d = w * std::sqrt(1 - zeta * zeta);
  model.probes.push_back({"exact", 1, [=](const State& s) {
                            const double t = s.t;
                            return Vector(Vector::Constant(
                                1, std::exp(-zeta * w * t) * (q0 * std::cos(w_d * t) +
                                                              (v0 + zeta * w * q0) / w_d * std::sin(w_d * t))));
                          }});
  model.system = std::move(system);
  return model;
}

}  // namespace

Scenario damped_oscillator_scenario() {
  return {"damped-oscillator",
          "EnergyPreservingForcedVI: damped harmonic oscillator, c = 2 zeta sqrt(k m) (zeta < 0: amplified); probe "
          "exact = closed form",
          {.h = 0.05, .t_end = 20.0},
          {{"m", 1.0, "mass"},
           {"k", 1.0, "spring stiffness"},
           {"zeta", 0.05, "damping ratio, |zeta| < 1 (our choices in docs: 0.01, 0.05, 0.1 and -0.05)"},
           {"q0", 1.0, "initial position"},
           {"v0", 0.0, "initial velocity"}},
          build};
}

}  // namespace noether
