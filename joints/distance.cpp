#include <noether/joints/distance.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {
namespace {

JointFamily distance_family(const BodyRef& b) { return {"distance joint", b.kinematics.dimension(), false}; }

std::shared_ptr<Constraint> build(const JointBodies& bodies, const Vector& X_a,
                                  const Vector& X_b, double length) {
  if (!(length > 0.0) || !std::isfinite(length))
    throw std::invalid_argument(bodies.label() + ": the length must be positive and finite, got " +
                                format_number(length));
  const AffineVector r = bodies.point_a(X_a) - bodies.point_b(X_b);
  return bodies.make_joint({dot_equation(r, r, 0.5, -0.5 * length * length)}, X_b);
}

}  // namespace

std::shared_ptr<Constraint> make_distance(const std::string& name, const BodyRef& a, const Vector& X_a,
                                          const BodyRef& b, const Vector& X_b, double length) {
  return build(JointBodies(name, distance_family(b), a, b), X_a, X_b, length);
}

std::shared_ptr<Constraint> make_distance_to_ground(const std::string& name, const Vector& x_ground,
                                                    const BodyRef& b, const Vector& X_b, double length) {
  return build(JointBodies(name, distance_family(b), b), x_ground, X_b, length);
}

}  // namespace noether
