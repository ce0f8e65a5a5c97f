#include <noether/joints/revolute.hpp>

namespace noether {
namespace {

const JointFamily revolute{"revolute joint", 3, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a,
                                  const Vector& axis_a, const Vector& X_b, const Vector& axis_b) {
  const Vector a = bodies.unit(axis_a, "axis_a");
  const Vector b = bodies.unit(axis_b, "axis_b");
  const auto [n1, n2] = axis_normal_pair(b);
  std::vector<QuadraticEquation> equations = coincidence_equations(bodies, X_a, X_b);
  append(equations, parallel_axes_equations(bodies, a, n1, n2));
  return bodies.make_joint(std::move(equations), X_b, axis_frame(b));
}

}  // namespace

std::shared_ptr<Constraint> make_revolute(const std::string& name, const BodyRef& a, const Vector& X_a,
                                          const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                          const Vector& axis_b) {
  return build(JointBodies(name, revolute, a, b), X_a, axis_a, X_b, axis_b);
}

std::shared_ptr<Constraint> make_revolute_to_ground(const std::string& name, const Vector& x_ground,
                                                    const Vector& axis_ground, const BodyRef& b,
                                                    const Vector& X_b, const Vector& axis_b) {
  return build(JointBodies(name, revolute, b), x_ground, axis_ground, X_b, axis_b);
}

}  // namespace noether
