#include <noether/joints/prismatic.hpp>

namespace noether {
namespace {

const JointFamily prismatic{"prismatic joint", 3, true};

std::shared_ptr<Constraint> build(const JointBodies& bodies, const JointFrame& frame_a,
                                  const JointFrame& frame_b) {
  const std::array<Vector, 3> e = bodies.frame_axes(frame_a, "frame_a");
  const std::array<Vector, 3> f = bodies.frame_axes(frame_b, "frame_b");
  const AffineVector offset = bodies.point_b(frame_b.origin) - bodies.point_a(frame_a.origin);
  std::vector<QuadraticEquation> equations{dot_equation(bodies.direction_a(e[1]), offset),
                                           dot_equation(bodies.direction_a(e[2]), offset)};
  append(equations, aligned_frames_equations(bodies, e, f));
  Matrix axes_b(3, 3);
  for (Index k = 0; k < 3; ++k) axes_b.col(k) = f[static_cast<std::size_t>(k)];
  return bodies.make_joint(std::move(equations), frame_b.origin, axes_b);
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
