#include <noether/joints/spherical.hpp>

namespace noether {
namespace {

const JointFamily spherical{"spherical joint", 3, false};

}  // namespace

std::shared_ptr<Constraint> make_spherical(const std::string& name, const BodyRef& a, const Vector& X_a,
                                           const BodyRef& b, const Vector& X_b) {
  const JointBodies bodies(name, spherical, a, b);
  return bodies.make_joint(coincidence_equations(bodies, X_a, X_b), X_b);
}

std::shared_ptr<Constraint> make_spherical_to_ground(const std::string& name, const Vector& x_ground,
                                                     const BodyRef& b, const Vector& X_b) {
  const JointBodies bodies(name, spherical, b);
  return bodies.make_joint(coincidence_equations(bodies, x_ground, X_b), X_b);
}

}  // namespace noether
