#include <noether/joints/driven_prismatic.hpp>

#include <noether/joints/driven_joint.hpp>

namespace noether {
namespace {

const JointFamily driven_prismatic_planar{"planar driven prismatic joint", 2, true};
const JointFamily driven_prismatic{"driven prismatic joint", 3, true};

/// The rows of `equations` (no coefficients), then slide - f(t).
std::shared_ptr<Constraint> with_drive(const JointBodies& bodies, std::vector<QuadraticEquation> equations,
                                       QuadraticEquation slide, TimeProfile displacement, const Vector& origin_b,
                                       const Matrix& axes_b) {
  check_time_profile(displacement, bodies.label() + ": the displacement profile");
  std::vector<std::vector<DrivenTerm>> rows;
  for (QuadraticEquation& e : equations) rows.push_back({{std::move(e), {}}});
  const Index n = bodies.size();
  QuadraticEquation one{1.0, Vector::Zero(n), Matrix::Zero(n, n)};
  TimeCoefficient minus_f = [f = std::move(displacement)](double t) {
    return ValueRate{-evaluate(f, t), -evaluate_rate(f, t)};
  };
  rows.push_back({{std::move(slide), {}}, {std::move(one), std::move(minus_f)}});
  return std::make_shared<DrivenJoint>(bodies.name(), bodies.blocks(), n, std::move(rows),
                                       bodies.reaction_site(origin_b, axes_b));
}

std::shared_ptr<Constraint> build_planar(const JointBodies& bodies, const Vector& X_a, const Vector& axis_a,
                                         const Vector& X_b, const Vector& axis_b, TimeProfile displacement) {
  const Vector u = bodies.unit(axis_a, "axis_a");
  const Vector b = bodies.unit(axis_b, "axis_b");
  const AffineVector offset = bodies.point_b(X_b) - bodies.point_a(X_a);
  return with_drive(bodies,
                    {dot_equation(bodies.direction_a(planar_normal(u)), offset),
                     dot_equation(bodies.direction_a(u), bodies.direction_b(planar_normal(b)))},
                    dot_equation(bodies.direction_a(u), offset), std::move(displacement), X_b, axis_frame(b));
}

std::shared_ptr<Constraint> build(const JointBodies& bodies, const JointFrame& frame_a, const JointFrame& frame_b,
                                  TimeProfile displacement) {
  PrismaticEquations p = prismatic_equations(bodies, frame_a, frame_b);
  return with_drive(bodies, std::move(p.equations), std::move(p.slide), std::move(displacement), frame_b.origin,
                    p.axes_b);
}

}  // namespace

std::shared_ptr<Constraint> make_driven_prismatic_planar(const std::string& name, const BodyRef& a, const Vector& X_a,
                                                         const Vector& axis_a, const BodyRef& b, const Vector& X_b,
                                                         const Vector& axis_b, TimeProfile displacement) {
  return build_planar(JointBodies(name, driven_prismatic_planar, a, b), X_a, axis_a, X_b, axis_b,
                      std::move(displacement));
}

std::shared_ptr<Constraint> make_driven_prismatic_planar_to_ground(const std::string& name, const Vector& x_ground,
                                                                   const Vector& axis_ground, const BodyRef& b,
                                                                   const Vector& X_b, const Vector& axis_b,
                                                                   TimeProfile displacement) {
  return build_planar(JointBodies(name, driven_prismatic_planar, b), x_ground, axis_ground, X_b, axis_b,
                      std::move(displacement));
}

std::shared_ptr<Constraint> make_driven_prismatic(const std::string& name, const BodyRef& a, const JointFrame& frame_a,
                                                  const BodyRef& b, const JointFrame& frame_b,
                                                  TimeProfile displacement) {
  return build(JointBodies(name, driven_prismatic, a, b), frame_a, frame_b, std::move(displacement));
}

std::shared_ptr<Constraint> make_driven_prismatic_to_ground(const std::string& name, const JointFrame& frame_ground,
                                                            const BodyRef& b, const JointFrame& frame_b,
                                                            TimeProfile displacement) {
  return build(JointBodies(name, driven_prismatic, b), frame_ground, frame_b, std::move(displacement));
}

}  // namespace noether
