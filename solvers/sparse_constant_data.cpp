#include "solvers/sparse_constant_data.hpp"

#include <stdexcept>

namespace noether {

SparseEntries::SparseEntries(const Matrix& A, std::pmr::memory_resource* resource) : entries_(resource) {
  entries_.reserve(static_cast<std::size_t>((A.array() != 0.0).count()));
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != 0.0) entries_.push_back({i, j, A(i, j)});
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
  std::vector<SparseEntries> H;  // H_k, from the default resource
  std::size_t nonzeros = 0;
  Matrix H_k(n, n);
  for (Index k = 0; k < m; ++k) {
    H_k.setZero();
    constraint.add_hessian_contraction(zero, Vector::Unit(m, k), 1.0, H_k);
    H.emplace_back(H_k);
    nonzeros += H.back().entries().size();
  }
  hessian_begin_.reserve(static_cast<std::size_t>(m) + 1);  // one allocation each: the data stays where
  hessian_entries_.reserve(nonzeros);                        // the resource put it
  hessian_begin_.push_back(0);
  for (const SparseEntries& h : H) {
    hessian_entries_.insert(hessian_entries_.end(), h.entries().begin(), h.entries().end());
    hessian_begin_.push_back(static_cast<std::ptrdiff_t>(hessian_entries_.size()));
  }
}

}  // namespace noether
