#include <noether/joints/prismatic_planar.hpp>

namespace noether {
namespace {

const JointFamily prismatic_planar{"planar prismatic joint", 2, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a,
                                  const Vector& axis_a, const Vector& X_b, const Vector& axis_b) {
  const Vector u = bodies.unit(axis_a, "axis_a");
  const Vector b = bodies.unit(axis_b, "axis_b");
  const Vector m = planar_normal(b);
  const AffineVector offset = bodies.point_b(X_b) - bodies.point_a(X_a);
  return bodies.make_joint({dot_equation(bodies.direction_a(planar_normal(u)), offset),
                            dot_equation(bodies.direction_a(u), bodies.direction_b(m))},
                           X_b, axis_frame(b));
}

}  // namespace

std::shared_ptr<Constraint> make_prismatic_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                  const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                                  const Vector& axis_b) {
  return build(JointBodies(name, prismatic_planar, a, b), X_a, axis_a, X_b, axis_b);
}

std::shared_ptr<Constraint> make_prismatic_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                            const Vector& axis_ground, const BodyRef& b,
                                                            const Vector& X_b, const Vector& axis_b) {
  return build(JointBodies(name, prismatic_planar, b), x_ground, axis_ground, X_b, axis_b);
}

}  // namespace noether
