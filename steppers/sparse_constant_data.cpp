#include <noether/steppers/sparse_constant_data.hpp>

#include <algorithm>
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

const std::byte* Arena::intern(std::span<const std::byte> bytes) {
  const std::string_view key(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (const auto found = stored_.find(key); found != stored_.end())
    return reinterpret_cast<const std::byte*>(found->data());
  auto* copy = static_cast<std::byte*>(memory_.allocate(bytes.size(), alignof(std::max_align_t)));
  std::copy(bytes.begin(), bytes.end(), copy);
  stored_.emplace(reinterpret_cast<const char*>(copy), bytes.size());
  return copy;
}

SparseEntries::SparseEntries(const Matrix& A, Arena& arena) {
  std::vector<Entry> nonzeros;
  append_nonzeros(A, nonzeros);
  entries_ = copy_to(arena, nonzeros);
}

SparseQuadraticConstraint::SparseQuadraticConstraint(const Constraint& constraint, Arena& arena) {
  if (!is_at_most_quadratic(constraint.nonlinearity()))
    throw std::invalid_argument("constraint '" + constraint.name() +
                                "': a sparse quadratic form needs a linear or quadratic constraint, it is general");
  const Index n = constraint.local_size(), m = constraint.num_equations();
  const Vector zero = Vector::Zero(n);
  Vector c(m);
  constraint.calc_value(zero, c);
  constant_ = copy_to(arena, std::vector<double>(c.begin(), c.end()));
  Matrix L(m, n);
  constraint.calc_jacobian(zero, L);
  linear_ = SparseEntries(L, arena);
  std::vector<Entry> entries;  // of H_0, H_1, ... in turn
  std::vector<Index> begin{0};
  const bool linear = constraint.nonlinearity() == Nonlinearity::linear;  // every H_k = 0
  Matrix H_k(linear ? 0 : n, linear ? 0 : n);
  for (Index k = 0; k < m; ++k) {
    if (!linear) {
      H_k.setZero();
      constraint.add_hessian_contraction(zero, Vector::Unit(m, k), 1.0, H_k);
      append_nonzeros(H_k, entries);
    }
    begin.push_back(static_cast<Index>(entries.size()));
  }
  hessian_begin_ = copy_to(arena, begin);
  hessian_entries_ = copy_to(arena, entries);
}

}  // namespace noether
