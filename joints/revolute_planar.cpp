#include <noether/joints/revolute_planar.hpp>

namespace noether {
namespace {

const JointFamily revolute_planar{"planar revolute joint", 2, false};

}  // namespace

std::shared_ptr<Constraint> make_revolute_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                 const BodyRef& b, const Vector& X_b) {
  const JointBodies bodies(name, revolute_planar, a, b);
  return bodies.make_joint(coincidence_equations(bodies, X_a, X_b), X_b);
}

std::shared_ptr<Constraint> make_revolute_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                           const BodyRef& b, const Vector& X_b) {
  const JointBodies bodies(name, revolute_planar, b);
  return bodies.make_joint(coincidence_equations(bodies, x_ground, X_b), X_b);
}

}  // namespace noether
