#include <noether/joints/fixed_planar.hpp>

namespace noether {
namespace {

const JointFamily fixed_planar{"planar fixed joint", 2, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a,
                                  const Vector& axis_a, const Vector& X_b, const Vector& axis_b) {
  const Vector u = bodies.unit(axis_a, "axis_a");
  const Vector b = bodies.unit(axis_b, "axis_b");
  std::vector<QuadraticEquation> equations = coincidence_equations(bodies, X_a, X_b);
  equations.push_back(dot_equation(bodies.direction_a(u), bodies.direction_b(planar_normal(b))));
  return bodies.make_joint(std::move(equations), X_b, axis_frame(b));
}

}  // namespace

std::shared_ptr<Constraint> make_fixed_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                              const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                              const Vector& axis_b) {
  return build(JointBodies(name, fixed_planar, a, b), X_a, axis_a, X_b, axis_b);
}

std::shared_ptr<Constraint> make_fixed_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                        const Vector& axis_ground, const BodyRef& b,
                                                        const Vector& X_b, const Vector& axis_b) {
  return build(JointBodies(name, fixed_planar, b), x_ground, axis_ground, X_b, axis_b);
}

}  // namespace noether
