#include "solvers/sparse_constant_data.hpp"

#include <stdexcept>

namespace noether {

namespace {

/// Appends the nonzeros of A (column by column) to entries.
void append_nonzeros(const Matrix& A, std::vector<SparseEntries::Entry>& entries) {
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != 0.0) entries.push_back({i, j, A(i, j)});
}

}  // namespace

SparseEntries::SparseEntries(const Matrix& A, std::pmr::memory_resource* resource) : entries_(resource) {
  std::vector<Entry> nonzeros;
  append_nonzeros(A, nonzeros);
  entries_.assign(nonzeros.begin(), nonzeros.end());  // one allocation from the resource
}

SparseQuadraticConstraint::SparseQuadraticConstraint(const Constraint& constraint, std::pmr::memory_resource* resource)
    : constant_(resource), linear_(resource), hessian_entries_(resource), hessian_begin_(resource) {
  if (!is_at_most_quadratic(constraint.nonlinearity()))
    throw std::invalid_argument("constraint '" + constraint.name() +
                                "': a sparse quadratic form needs a linear or quadratic constraint, it is general");
  const Index n = constraint.local_size(), m = constraint.num_equations();
  const Vector zero = Vector::Zero(n);
  Vector c(m);
  constraint.calc_value(zero, c);
  constant_.assign(c.begin(), c.end());
  Matrix L(m, n);
  constraint.calc_jacobian(zero, L);
  linear_ = SparseEntries(L, resource);
  std::vector<Entry> entries;  // of H_0, H_1, ... in turn
  std::vector<std::ptrdiff_t> begin{0};
  Matrix H_k(n, n);
  for (Index k = 0; k < m; ++k) {
    H_k.setZero();
    constraint.add_hessian_contraction(zero, Vector::Unit(m, k), 1.0, H_k);
    append_nonzeros(H_k, entries);
    begin.push_back(static_cast<std::ptrdiff_t>(entries.size()));
  }
  hessian_begin_.assign(begin.begin(), begin.end());  // one allocation each from the resource
  hessian_entries_.assign(entries.begin(), entries.end());
}

}  // namespace noether
