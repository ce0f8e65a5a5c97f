#include "solvers/sparse_constant_data.hpp"

#include <stdexcept>

namespace noether {

SparseEntries::SparseEntries(const Matrix& A) {
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != 0.0) entries_.push_back({i, j, A(i, j)});
}

void SparseEntries::add_product(ConstVectorRef x, double s, VectorRef y) const {
  for (const Entry& e : entries_) y(e.row) += s * e.value * x(e.col);
}

void SparseEntries::add_transpose_product(ConstVectorRef x, double s, VectorRef y) const {
  for (const Entry& e : entries_) y(e.col) += s * e.value * x(e.row);
}

void SparseEntries::add_to(double s, MatrixRef K) const {
  for (const Entry& e : entries_) K(e.row, e.col) += s * e.value;
}

void SparseEntries::add_transpose_to(double s, MatrixRef K) const {
  for (const Entry& e : entries_) K(e.col, e.row) += s * e.value;
}

SparseQuadraticConstraint::SparseQuadraticConstraint(const Constraint& constraint) {
  if (!is_at_most_quadratic(constraint.nonlinearity()))
    throw std::invalid_argument("constraint '" + constraint.name() +
                                "': a sparse quadratic form needs a linear or quadratic constraint, it is general");
  const Index n = constraint.local_size(), m = constraint.num_equations();
  const Vector zero = Vector::Zero(n);
  constant_.resize(m);
  constraint.calc_value(zero, constant_);
  Matrix L(m, n);
  constraint.calc_jacobian(zero, L);
  linear_ = SparseEntries(L);
  Matrix H(n, n);
  for (Index k = 0; k < m; ++k) {
    H.setZero();
    constraint.add_hessian_contraction(zero, Vector::Unit(m, k), 1.0, H);
    for (Index j = 0; j < n; ++j)
      for (Index i = 0; i < n; ++i)
        if (H(i, j) != 0.0) second_order_.push_back({k, i, j, H(i, j)});
  }
}

void SparseQuadraticConstraint::calc_value(ConstVectorRef q, VectorRef g) const {
  g = constant_;
  linear_.add_product(q, 1.0, g);
  for (const SecondOrderEntry& e : second_order_) g(e.equation) += 0.5 * e.value * q(e.row) * q(e.col);
}

void SparseQuadraticConstraint::add_jacobian(ConstVectorRef q, double s, MatrixRef G) const {
  linear_.add_to(s, G);
  for (const SecondOrderEntry& e : second_order_) G(e.equation, e.row) += s * e.value * q(e.col);
}

void SparseQuadraticConstraint::add_jacobian_transpose(ConstVectorRef q, double s, MatrixRef Gt) const {
  linear_.add_transpose_to(s, Gt);
  for (const SecondOrderEntry& e : second_order_) Gt(e.row, e.equation) += s * e.value * q(e.col);
}

void SparseQuadraticConstraint::add_jacobian_transpose_product(ConstVectorRef q, ConstVectorRef lambda, double s,
                                                               VectorRef r) const {
  linear_.add_transpose_product(lambda, s, r);
  for (const SecondOrderEntry& e : second_order_) r(e.row) += s * lambda(e.equation) * e.value * q(e.col);
}

void SparseQuadraticConstraint::add_hessian_contraction(ConstVectorRef lambda, double s, MatrixRef K) const {
  for (const SecondOrderEntry& e : second_order_) K(e.row, e.col) += s * lambda(e.equation) * e.value;
}

}  // namespace noether
