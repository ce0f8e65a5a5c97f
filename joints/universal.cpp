#include <noether/joints/universal.hpp>

namespace noether {
namespace {

const JointFamily universal{"universal joint", 3, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a,
                                  const Vector& axis_a, const Vector& X_b, const Vector& axis_b) {
  std::vector<QuadraticEquation> equations = coincidence_equations(bodies, X_a, X_b);
  const Vector b = bodies.unit(axis_b, "axis_b");
  equations.push_back(dot_equation(bodies.direction_a(bodies.unit(axis_a, "axis_a")), bodies.direction_b(b)));
  return bodies.make_joint(std::move(equations), X_b, axis_frame(b));
}

}  // namespace

std::shared_ptr<Constraint> make_universal(const std::string& name, const BodyRef& a, const Vector& X_a,
                                           const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                           const Vector& axis_b) {
  return build(JointBodies(name, universal, a, b), X_a, axis_a, X_b, axis_b);
}

std::shared_ptr<Constraint> make_universal_to_ground(const std::string& name, const Vector& x_ground,
                                                     const Vector& axis_ground, const BodyRef& b,
                                                     const Vector& X_b, const Vector& axis_b) {
  return build(JointBodies(name, universal, b), x_ground, axis_ground, X_b, axis_b);
}

}  // namespace noether
