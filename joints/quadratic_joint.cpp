#include <noether/joints/quadratic_joint.hpp>

#include <stdexcept>
#include <string>

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
  const Index n = static_cast<Index>(y.map.cols());
  std::vector<QuadraticEquation> equations;
  for (Index k = 0; k < y.map.rows(); ++k)
    equations.push_back({y.offset(k), y.map.row(k).transpose(), Matrix::Zero(n, n)});
  return equations;
}

QuadraticJoint::QuadraticJoint(std::string name, std::vector<BlockId> blocks,
                               std::vector<QuadraticEquation> equations)
    : Constraint(std::move(name), std::move(blocks)), nonlinearity_(Nonlinearity::linear) {
  if (equations.empty()) throw std::invalid_argument("joint '" + this->name() + "': no equations");
  const Index m = static_cast<Index>(equations.size());
  const Index n = static_cast<Index>(equations.front().linear.size());
  constants_.resize(m);
  linear_.resize(m, n);
  for (Index k = 0; k < m; ++k) {
    const QuadraticEquation& e = equations[k];
    if (e.linear.size() != n || e.hessian.rows() != n || e.hessian.cols() != n)
      throw std::invalid_argument("joint '" + this->name() + "': equation " + std::to_string(k) +
                                  " does not have the size of the joint's coordinates (" + std::to_string(n) + ")");
    if (e.hessian != e.hessian.transpose())
      throw std::invalid_argument("joint '" + this->name() + "': the Hessian of equation " + std::to_string(k) +
                                  " is not symmetric");
    constants_(k) = e.constant;
    linear_.row(k) = e.linear.transpose();
    if (!e.hessian.isZero(0.0)) second_order_.push_back({k, e.hessian});
  }
  if (!second_order_.empty()) nonlinearity_ = Nonlinearity::quadratic;
}

void QuadraticJoint::do_calc_value(ConstVectorRef q, VectorRef g) const {
  g.noalias() = constants_ + linear_ * q;
  for (const SecondOrderTerm& t : second_order_) g(t.equation) += 0.5 * q.dot(t.hessian * q);
}

void QuadraticJoint::do_calc_jacobian(ConstVectorRef q, MatrixRef G) const {
  G = linear_;
  for (const SecondOrderTerm& t : second_order_) G.row(t.equation).noalias() += (t.hessian * q).transpose();
}

void QuadraticJoint::do_add_hessian_contraction(ConstVectorRef, ConstVectorRef lambda, double s, MatrixRef K) const {
  for (const SecondOrderTerm& t : second_order_) K.noalias() += (s * lambda(t.equation)) * t.hessian;
}

}  // namespace noether
