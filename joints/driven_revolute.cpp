#include <noether/joints/driven_revolute.hpp>

#include <cmath>

#include <noether/joints/driven_joint.hpp>

namespace noether {
namespace {

const JointFamily driven_revolute_planar{"planar driven revolute joint", 2, true};
const JointFamily driven_revolute{"driven revolute joint", 3, true};

/// The rows of `equations` (no coefficients), then s cos f - c sin f.
std::vector<std::vector<DrivenTerm>> with_drive(const JointBodies& bodies, std::vector<QuadraticEquation> equations,
                                                QuadraticEquation c, QuadraticEquation s, TimeProfile angle) {
  check_time_profile(angle, bodies.label() + ": the angle profile");
  std::vector<std::vector<DrivenTerm>> rows;
  for (QuadraticEquation& e : equations) rows.push_back({{std::move(e), {}}});
  const auto f = std::make_shared<const TimeProfile>(std::move(angle));
  TimeCoefficient cos_f = [f](double t) {
    const double value = evaluate(*f, t);
    return ValueRate{std::cos(value), -std::sin(value) * evaluate_rate(*f, t)};
  };
  TimeCoefficient minus_sin_f = [f](double t) {
    const double value = evaluate(*f, t);
    return ValueRate{-std::sin(value), -std::cos(value) * evaluate_rate(*f, t)};
  };
  rows.push_back({{std::move(s), std::move(cos_f)}, {std::move(c), std::move(minus_sin_f)}});
  return rows;
}

std::shared_ptr<Constraint> build_planar(const JointBodies& bodies, const Vector& X_a, const Vector& X_b,
                                         TimeProfile angle) {
  const Vector e1 = Vector::Unit(2, 0), e2 = Vector::Unit(2, 1);
  const AffineVector u_b = bodies.direction_b(e1);
  auto rows = with_drive(bodies, coincidence_equations(bodies, X_a, X_b), dot_equation(bodies.direction_a(e1), u_b),
                         dot_equation(bodies.direction_a(e2), u_b), std::move(angle));
  return std::make_shared<DrivenJoint>(bodies.name(), bodies.blocks(), bodies.size(), std::move(rows),
                                       bodies.reaction_site(X_b));
}

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a, const Vector& axis_a,
                                  const Vector& X_b, const Vector& axis_b, TimeProfile angle) {
  const Vector a = bodies.unit(axis_a, "axis_a");
  const Vector b = bodies.unit(axis_b, "axis_b");
  const auto [m1, m2] = axis_normal_pair(a);
  const auto [n1, n2] = axis_normal_pair(b);
  std::vector<QuadraticEquation> equations = coincidence_equations(bodies, X_a, X_b);
  append(equations, parallel_axes_equations(bodies, a, n1, n2));
  const AffineVector u_b = bodies.direction_b(n1);
  auto rows = with_drive(bodies, std::move(equations), dot_equation(bodies.direction_a(m1), u_b),
                         dot_equation(bodies.direction_a(m2), u_b), std::move(angle));
  return std::make_shared<DrivenJoint>(bodies.name(), bodies.blocks(), bodies.size(), std::move(rows),
                                       bodies.reaction_site(X_b, axis_frame(b)));
}

}  // namespace

std::shared_ptr<Constraint> make_driven_revolute_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                        const BodyRef& b, const Vector& X_b, TimeProfile angle) {
  return build_planar(JointBodies(name, driven_revolute_planar, a, b), X_a, X_b, std::move(angle));
}

std::shared_ptr<Constraint> make_driven_revolute_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                                  const BodyRef& b, const Vector& X_b,
                                                                  TimeProfile angle) {
  return build_planar(JointBodies(name, driven_revolute_planar, b), x_ground, X_b, std::move(angle));
}

std::shared_ptr<Constraint> make_driven_revolute(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                 const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                                 const Vector& axis_b, TimeProfile angle) {
  return build(JointBodies(name, driven_revolute, a, b), X_a, axis_a, X_b, axis_b, std::move(angle));
}

std::shared_ptr<Constraint> make_driven_revolute_to_ground(const std::string& name, const Vector& x_ground,
                                                           const Vector& axis_ground, const BodyRef& b,
                                                           const Vector& X_b, const Vector& axis_b,
                                                           TimeProfile angle) {
  return build(JointBodies(name, driven_revolute, b), x_ground, axis_ground, X_b, axis_b, std::move(angle));
}

}  // namespace noether
