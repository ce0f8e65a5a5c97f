#include <noether/joints/quadratic_joint.hpp>

#include <stdexcept>
#include <string>

#include <noether/engine/quote.hpp>

namespace noether {

AffineVector operator-(const AffineVector& y, const AffineVector& z) {
  return {y.map - z.map, y.offset - z.offset};
}

QuadraticEquation dot_equation(const AffineVector& u, const AffineVector& v, double weight, double constant) {
  const Matrix UtV = u.map.transpose() * v.map;
  return {weight * u.offset.dot(v.offset) + constant,
          weight * (u.map.transpose() * v.offset + v.map.transpose() * u.offset),
          weight * (UtV + UtV.transpose())};
}

std::vector<QuadraticEquation> component_equations(const AffineVector& y) {
  std::vector<QuadraticEquation> equations;
  for (Index k = 0; k < y.map.rows(); ++k) equations.push_back({y.offset(k), y.map.row(k).transpose(), Matrix()});
  return equations;
}

namespace {

/// The joint's equations as one quadratic form, after the checks QuadraticJoint documents.
QuadraticForm joint_form(const std::string& name, const std::vector<QuadraticEquation>& equations) {
  if (equations.empty()) throw std::invalid_argument("joint " + quote(name) + ": no equations");
  const Index m = static_cast<Index>(equations.size());
  const Index n = static_cast<Index>(equations.front().linear.size());
  Vector constants(m);
  Matrix linear(m, n);
  std::vector<Matrix> hessians(static_cast<std::size_t>(m));
  for (Index k = 0; k < m; ++k) {
    const QuadraticEquation& e = equations[static_cast<std::size_t>(k)];
    const bool linear_only = e.hessian.size() == 0;
    if (e.linear.size() != n || (!linear_only && (e.hessian.rows() != n || e.hessian.cols() != n)))
      throw std::invalid_argument("joint " + quote(name) + ": equation " + std::to_string(k) +
                                  " does not have the size of the joint's coordinates (" + std::to_string(n) + ")");
    if (e.hessian != e.hessian.transpose())
      throw std::invalid_argument("joint " + quote(name) + ": the Hessian of equation " + std::to_string(k) +
                                  " is not symmetric");
    constants(k) = e.constant;
    linear.row(k) = e.linear.transpose();
    if (!linear_only && !e.hessian.isZero(0.0)) hessians[static_cast<std::size_t>(k)] = e.hessian;
  }
  return QuadraticForm("joint " + quote(name), constants, linear, hessians);
}

Index local_size_of(const std::vector<QuadraticEquation>& equations) {
  return equations.empty() ? 0 : static_cast<Index>(equations.front().linear.size());
}

}  // namespace

QuadraticJoint::QuadraticJoint(std::string name, std::vector<BlockId> blocks,
                               const std::vector<QuadraticEquation>& equations,
                               std::shared_ptr<const ReactionSite> reaction)
    : QuadraticConstraint(name, std::move(blocks), local_size_of(equations), joint_form(name, equations)),
      reaction_(std::move(reaction)) {}

}  // namespace noether
