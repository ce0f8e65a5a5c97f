#include <noether/joints/prismatic.hpp>

namespace noether {
namespace {

const JointFamily prismatic{"prismatic joint", 3, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const JointFrame& frame_a,
                                  const JointFrame& frame_b) {
  PrismaticEquations p = prismatic_equations(bodies, frame_a, frame_b);
  return bodies.make_joint(std::move(p.equations), frame_b.origin, p.axes_b);
}

}  // namespace

std::shared_ptr<Constraint> make_prismatic(const std::string& name, const BodyRef& a, const JointFrame& frame_a,
                                           const BodyRef& b, const JointFrame& frame_b) {
  return build(JointBodies(name, prismatic, a, b), frame_a, frame_b);
}

std::shared_ptr<Constraint> make_prismatic_to_ground(const std::string& name, const JointFrame& frame_ground,
                                                     const BodyRef& b, const JointFrame& frame_b) {
  return build(JointBodies(name, prismatic, b), frame_ground, frame_b);
}

}  // namespace noether
