#include <noether/joints/perpendicular.hpp>

namespace noether {
namespace {

JointFamily perpendicular_family(const BodyRef& b) { return {"perpendicular joint", b.kinematics.dimension(), true}; }

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& axis_a, const Vector& axis_b) {
  const Vector b = bodies.unit(axis_b, "axis_b");
  return bodies.make_joint({dot_equation(bodies.direction_a(bodies.unit(axis_a, "axis_a")), bodies.direction_b(b))},
                           Vector::Zero(bodies.dimension()), axis_frame(b));
}

}  // namespace

std::shared_ptr<Constraint> make_perpendicular(const std::string& name, const BodyRef& a, const Vector& axis_a,
                                               const BodyRef& b, const Vector& axis_b) {
  return build(JointBodies(name, perpendicular_family(b), a, b), axis_a, axis_b);
}

std::shared_ptr<Constraint> make_perpendicular_to_ground(const std::string& name, const Vector& axis_ground,
                                                         const BodyRef& b, const Vector& axis_b) {
  return build(JointBodies(name, perpendicular_family(b), b), axis_ground, axis_b);
}

}  // namespace noether
