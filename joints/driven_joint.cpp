#include <noether/joints/driven_joint.hpp>

#include <stdexcept>
#include <string>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// The rows with each empty Hessian (an equation linear in q) made an n x n zero, which the
/// evaluations below multiply as they do every other term's.
std::vector<std::vector<DrivenTerm>> with_full_hessians(std::vector<std::vector<DrivenTerm>> rows, Index n) {
  for (std::vector<DrivenTerm>& row : rows)
    for (DrivenTerm& term : row)
      if (term.equation.hessian.size() == 0) term.equation.hessian = Matrix::Zero(n, n);
  return rows;
}

}  // namespace

DrivenJoint::DrivenJoint(std::string name, std::vector<BlockId> blocks, Index local_size,
                         std::vector<std::vector<DrivenTerm>> rows, std::shared_ptr<const ReactionSite> reaction)
    : Constraint(std::move(name), std::move(blocks)), local_size_(local_size),
      rows_(with_full_hessians(std::move(rows), local_size)),
      reaction_(std::move(reaction)) {
  const std::string label = "driven joint " + quote(this->name());
  if (rows_.empty()) throw std::invalid_argument(label + ": no equations");
  for (const std::vector<DrivenTerm>& row : rows_) {
    if (row.empty()) throw std::invalid_argument(label + ": an equation without terms");
    for (const DrivenTerm& term : row) {
      const QuadraticEquation& e = term.equation;
      if (e.linear.size() != local_size_ || e.hessian.rows() != local_size_ || e.hessian.cols() != local_size_)
        throw std::invalid_argument(label + ": an equation's sizes disagree with the joint's " +
                                    std::to_string(local_size_) + " coordinates");
    }
  }
}

template <class Weight>
void DrivenJoint::sum_rows(double t, ConstVectorRef q, Weight weight, VectorRef* out, MatrixRef* J) const {
  if (out) out->setZero();
  if (J) J->setZero();
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    const auto row = static_cast<Index>(k);
    for (const DrivenTerm& term : rows_[k]) {
      const double w = weight(term.coefficient ? term.coefficient(t) : ValueRate{1.0, 0.0});
      if (w == 0.0) continue;
      const QuadraticEquation& e = term.equation;
      const Vector Hq = e.hessian * q;
      if (out) (*out)(row) += w * (e.constant + e.linear.dot(q) + 0.5 * q.dot(Hq));
      if (J) J->row(row) += w * (e.linear + Hq).transpose();
    }
  }
}

void DrivenJoint::do_calc_value_at(double t, ConstVectorRef q, VectorRef g) const {
  sum_rows(t, q, [](ValueRate c) { return c.value; }, &g, nullptr);
}

void DrivenJoint::do_calc_jacobian_at(double t, ConstVectorRef q, MatrixRef G) const {
  sum_rows(t, q, [](ValueRate c) { return c.value; }, nullptr, &G);
}

template <class Weight>
void DrivenJoint::add_hessians(double t, ConstVectorRef lambda, Weight weight, double s, MatrixRef K) const {
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    const double lambda_k = lambda(static_cast<Index>(k));
    if (lambda_k == 0.0) continue;
    for (const DrivenTerm& term : rows_[k]) {
      const double w = weight(term.coefficient ? term.coefficient(t) : ValueRate{1.0, 0.0});
      if (w != 0.0) K += (s * lambda_k * w) * term.equation.hessian;
    }
  }
}

void DrivenJoint::do_add_hessian_contraction_at(double t, ConstVectorRef, ConstVectorRef lambda, double s,
                                                MatrixRef K) const {
  add_hessians(t, lambda, [](ValueRate c) { return c.value; }, s, K);
}

void DrivenJoint::do_add_rate_hessian_contraction(double t, ConstVectorRef, ConstVectorRef lambda, double s,
                                                  MatrixRef K) const {
  add_hessians(t, lambda, [](ValueRate c) { return c.rate; }, s, K);
}

void DrivenJoint::do_calc_rate(double t, ConstVectorRef q, VectorRef g_t) const {
  sum_rows(t, q, [](ValueRate c) { return c.rate; }, &g_t, nullptr);
}

void DrivenJoint::do_calc_rate_jacobian(double t, ConstVectorRef q, MatrixRef G_t) const {
  sum_rows(t, q, [](ValueRate c) { return c.rate; }, nullptr, &G_t);
}

}  // namespace noether
