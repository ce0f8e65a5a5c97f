#include <noether/joints/cylindrical.hpp>

namespace noether {
namespace {

const JointFamily cylindrical{"cylindrical joint", 3, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a,
                                  const Vector& axis_a, const Vector& X_b, const Vector& axis_b) {
  const Vector a = bodies.unit(axis_a, "axis_a");
  const Vector b = bodies.unit(axis_b, "axis_b");
  const auto [m1, m2] = axis_normal_pair(b);
  const auto [n1, n2] = axis_normal_pair(a);
  const AffineVector offset = bodies.point_b(X_b) - bodies.point_a(X_a);
  std::vector<QuadraticEquation> equations = parallel_axes_equations(bodies, a, m1, m2);
  equations.push_back(dot_equation(bodies.direction_a(n1), offset));
  equations.push_back(dot_equation(bodies.direction_a(n2), offset));
  return bodies.make_joint(std::move(equations), X_b, axis_frame(b));
}

}  // namespace

std::shared_ptr<Constraint> make_cylindrical(const std::string& name, const BodyRef& a, const Vector& X_a,
                                             const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                             const Vector& axis_b) {
  return build(JointBodies(name, cylindrical, a, b), X_a, axis_a, X_b, axis_b);
}

std::shared_ptr<Constraint> make_cylindrical_to_ground(const std::string& name, const Vector& x_ground,
                                                       const Vector& axis_ground, const BodyRef& b,
                                                       const Vector& X_b, const Vector& axis_b) {
  return build(JointBodies(name, cylindrical, b), x_ground, axis_ground, X_b, axis_b);
}

}  // namespace noether
