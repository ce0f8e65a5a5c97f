#include <noether/joints/joint_equations.hpp>

#include <Eigen/Geometry>

namespace noether {

std::array<Vector, 2> axis_normal_pair(const Vector& axis) {
  const Eigen::Vector3d a = axis;
  Eigen::Index least_aligned = 0;
  a.cwiseAbs().minCoeff(&least_aligned);
  const Eigen::Vector3d n1 = a.cross(Eigen::Vector3d::Unit(least_aligned)).normalized();
  const Eigen::Vector3d n2 = a.cross(n1);
  return {Vector(n1), Vector(n2)};
}

Vector planar_normal(const Vector& u) { return Eigen::Vector2d(-u(1), u(0)); }

Matrix axis_frame(const Vector& axis) {
  Matrix frame(axis.size(), axis.size());
  frame.col(0) = axis;
  if (axis.size() == 2) {
    frame.col(1) = planar_normal(axis);
    return frame;
  }
  const auto [n1, n2] = axis_normal_pair(axis);
  frame.col(1) = n1;
  frame.col(2) = n2;
  return frame;
}

std::vector<QuadraticEquation> coincidence_equations(const JointBodies& bodies, const Vector& X_a, const Vector& X_b) {
  return component_equations(bodies.point_b(X_b) - bodies.point_a(X_a));
}

std::vector<QuadraticEquation> parallel_axes_equations(const JointBodies& bodies, const Vector& a,
                                                       const Vector& n1, const Vector& n2) {
  const AffineVector axis = bodies.direction_a(a);
  return {dot_equation(axis, bodies.direction_b(n1)), dot_equation(axis, bodies.direction_b(n2))};
}

std::vector<QuadraticEquation> aligned_frames_equations(const JointBodies& bodies, const std::array<Vector, 3>& e,
                                                        const std::array<Vector, 3>& f) {
  std::vector<QuadraticEquation> equations = parallel_axes_equations(bodies, e[0], f[1], f[2]);
  equations.push_back(dot_equation(bodies.direction_a(e[1]), bodies.direction_b(f[2])));
  return equations;
}

void append(std::vector<QuadraticEquation>& equations, std::vector<QuadraticEquation> more) {
  for (QuadraticEquation& e : more) equations.push_back(std::move(e));
}

PrismaticEquations prismatic_equations(const JointBodies& bodies, const JointFrame& frame_a, const JointFrame& frame_b) {
  const std::array<Vector, 3> e = bodies.frame_axes(frame_a, "frame_a");
  const std::array<Vector, 3> f = bodies.frame_axes(frame_b, "frame_b");
  const AffineVector offset = bodies.point_b(frame_b.origin) - bodies.point_a(frame_a.origin);
  PrismaticEquations out{{dot_equation(bodies.direction_a(e[1]), offset), dot_equation(bodies.direction_a(e[2]), offset)},
                         dot_equation(bodies.direction_a(e[0]), offset),
                         Matrix(3, 3)};
  append(out.equations, aligned_frames_equations(bodies, e, f));
  for (Index k = 0; k < 3; ++k) out.axes_b.col(k) = f[static_cast<std::size_t>(k)];
  return out;
}

}  // namespace noether
