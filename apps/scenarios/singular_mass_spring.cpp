/// [KinonBetsch2023, Sec. 6.1, Table 1]: two masses and two nonlinear springs described by the absolute
/// coordinates x1, q2 and the relative coordinate x2 (elongation of spring 2), so that
/// T = 1/2 m1 v1^2 + 1/2 m2 (v2 + v3)^2 has a singular mass matrix.
#include <noether/apps/scenarios/scenario.hpp>

namespace noether {
namespace {

Vector one(double x) { return Vector::Constant(1, x); }

/// V = 1/4 k (x^2 + x^4) of one coordinate.
PolynomialPotentialDescription quartic_spring(std::string name, std::string body, std::string coordinate, double k) {
  return {std::move(name), std::move(body), std::move(coordinate), 0.0, {0.0, 0.0, 0.25 * k, 0.0, 0.25 * k}};
}

ModelDescription describe(const ParameterValues& p) {
  const double m1 = p.at("m1"), m2 = p.at("m2");
  const double gap = p.at("l10") + p.at("w");
  ModelDescription d;
  const double x1 = p.at("x1_0"), v1 = p.at("v1_0");
  d.bodies = {CoordinatesDescription{"mass1", {"x1"}, one(x1), one(v1)},
              CoordinatesDescription{"mass2", {"q2"}, one(x1 + gap), one(v1)},  // q2' = x1' keeps g' = 0
              CoordinatesDescription{"spring2", {"x2"}, one(p.at("x2_0")), one(p.at("v3_0"))}};
  Matrix M(3, 3);
  M << m1, 0, 0, 0, m2, m2, 0, m2, m2;
  d.inertias = {{"masses", {"mass1", "mass2", "spring2"}, M}};
  // g = 1/2 ((q2 - x1)^2 - gap^2) on (x1, q2).
  Matrix H(2, 2);
  H << 1.0, -1.0, -1.0, 1.0;
  d.constraints = {QuadraticConstraintDescription{
      "interconnection", {"mass1", "mass2"}, {QuadraticEquation{-0.5 * gap * gap, Vector::Zero(2), H}}}};
  d.forces = {quartic_spring("spring1", "mass1", "x1", p.at("k1")), quartic_spring("spring2", "spring2", "x2", p.at("k2"))};
  return d;
}

}  // namespace

Scenario singular_mass_spring_scenario() {
  const ParameterRange positive = ParameterRange::positive(), nonnegative = ParameterRange::nonnegative();
  return {"singular-mass-spring",
          "KinonBetsch2023 Table 1: mass-spring system with a singular mass matrix (livens-em)",
          {.h = 0.1, .t_end = 10.0},
          {{"m1", 1.0, "mass 1", {}, positive},
           {"m2", 1.0, "mass 2", {}, positive},
           {"k1", 1.0, "stiffness of spring 1", {}, nonnegative},
           {"k2", 3.0, "stiffness of spring 2", {}, nonnegative},
           {"l10", 1.0, "rest length of spring 1", {}, positive},
           {"w", 0.1, "width of mass 1", {}, nonnegative},
           {"x1_0", 0.5, "initial x1 (our choice: the paper does not state it)"},
           {"x2_0", 0.0, "initial x2 (our choice)"},
           {"v1_0", 0.0, "initial x1' = q2' (our choice)"},
           {"v3_0", 1.0, "initial x2' (our choice)"}},
          describe};
}

}  // namespace noether
