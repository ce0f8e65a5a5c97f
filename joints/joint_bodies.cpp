#include <noether/joints/joint_bodies.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <Eigen/Geometry>

#include <noether/engine/quote.hpp>
#include <noether/joints/joint_reaction.hpp>

namespace noether {
namespace {

std::string describe(const Vector& v) {
  std::ostringstream out;
  out << "(" << v.transpose() << ")";
  return out.str();
}

}  // namespace

JointBodies::JointBodies(const std::string& joint_name, const JointFamily& family, const BodyRef& a, const BodyRef& b)
    : name_(joint_name), label_(family.kind + " " + quote(joint_name)), dimension_(family.dimension) {
  check_body(a, family);
  check_body(b, family);
  if (a.block == b.block)
    throw std::invalid_argument(label_ + ": connects body " + quote(b.name) + " to itself; give two different bodies");
  a_ = {a, 0};
  b_ = {b, a.kinematics.size()};
  size_ = a.kinematics.size() + b.kinematics.size();
}

JointBodies::JointBodies(const std::string& joint_name, const JointFamily& family, const BodyRef& b)
    : name_(joint_name), label_(family.kind + " " + quote(joint_name)), dimension_(family.dimension) {
  check_body(b, family);
  a_ = {std::nullopt, 0};
  b_ = {b, 0};
  size_ = b.kinematics.size();
}

void JointBodies::check_body(const BodyRef& body, const JointFamily& family) const {
  const Index dim = body.kinematics.dimension();
  if (dim != family.dimension)
    throw std::invalid_argument(label_ + ": body " + quote(body.name) + " is " + std::to_string(dim) + "D, but a " +
                                family.kind + " needs " + std::to_string(family.dimension) + "D bodies");
  if (family.needs_orientation && !body.kinematics.has_directors())
    throw std::invalid_argument(label_ + ": body " + quote(body.name) + " is a point mass, but a " + family.kind +
                                " needs the body's orientation; use a director body");
}

void JointBodies::check_size(const Vector& v, const std::string& what) const {
  if (v.size() != dimension_)
    throw std::invalid_argument(label_ + ": " + what + " needs " + std::to_string(dimension_) + " components, got " +
                                std::to_string(v.size()));
  if (!v.allFinite()) throw std::invalid_argument(label_ + ": " + what + " is not finite: " + describe(v));
}

AffineVector JointBodies::point(const Side& side, const Vector& X) const {
  AffineVector x{Matrix::Zero(dimension_, size_), Vector::Zero(dimension_)};
  if (!side.body) {
    check_size(X, "the ground point");
    x.offset = X;
    return x;
  }
  const BodyRef& body = *side.body;
  check_size(X, "the attachment point on body " + quote(body.name));
  if (!body.kinematics.has_directors() && X.squaredNorm() != 0.0)
    throw std::invalid_argument(label_ + ": body " + quote(body.name) + " is a point mass; attach it at X = 0, not at " +
                                describe(X));
  x.map.middleCols(side.offset, body.kinematics.size()) = body.kinematics.point_map(X);
  return x;
}

AffineVector JointBodies::direction(const Side& side, const Vector& N) const {
  AffineVector n{Matrix::Zero(dimension_, size_), Vector::Zero(dimension_)};
  if (!side.body) {
    n.offset = N;
    return n;
  }
  const BodyRef& body = *side.body;
  n.map.middleCols(side.offset, body.kinematics.size()) = body.kinematics.direction_map(N);
  return n;
}

Vector JointBodies::unit(const Vector& N, const std::string& what) const {
  check_size(N, what);
  if (!N.allFinite() || N.cwiseAbs().maxCoeff() == 0.0)
    throw std::invalid_argument(label_ + ": " + what + " must be a finite, nonzero direction, got " + describe(N));
  if (std::isnormal(N.squaredNorm())) return N / N.norm();
  const Vector scaled = N / N.cwiseAbs().maxCoeff();  // |N|^2 overflows or underflows; |scaled| is in [1, sqrt(n)]
  return scaled / scaled.norm();
}

std::array<Vector, 3> JointBodies::frame_axes(const JointFrame& frame, const std::string& what) const {
  const Vector e1 = unit(frame.axis, what + " axis");
  const Vector normal = unit(frame.normal, what + " normal");
  const Vector in_plane = normal - normal.dot(e1) * e1;
  if (in_plane.norm() < 1e-8)
    throw std::invalid_argument(label_ + ": the " + what + " normal " + describe(frame.normal) +
                                " is parallel to its axis " + describe(frame.axis) + "; give a normal across the axis");
  const Vector e2 = in_plane.normalized();
  const Vector e3 = Eigen::Vector3d(e1).cross(Eigen::Vector3d(e2));
  return {e1, e2, e3};
}

std::vector<BlockId> JointBodies::blocks() const {
  std::vector<BlockId> blocks;
  if (a_.body) blocks.push_back(a_.body->block);
  blocks.push_back(b_.body->block);
  return blocks;
}

std::shared_ptr<const ReactionSite> JointBodies::reaction_site(const Vector& origin_b, const Matrix& axes_b) const {
  const Index position = a_.body ? 1 : 0;
  return std::make_shared<JointReactionSite>(name_, position, b_.body->kinematics, origin_b, axes_b);
}

std::shared_ptr<Constraint> JointBodies::make_joint(std::vector<QuadraticEquation> equations, const Vector& origin_b,
                                                    const Matrix& axes_b) const {
  return std::make_shared<QuadraticJoint>(name_, blocks(), std::move(equations), reaction_site(origin_b, axes_b));
}

}  // namespace noether
