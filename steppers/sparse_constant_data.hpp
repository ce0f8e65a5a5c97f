#pragma once
/// Constant element data read once through the engine interfaces and kept as lists of nonzeros,
/// so that a stepper's per-iteration work on it costs O(nonzeros) instead of dense m x n or n x n
/// products of dynamic size. A director body's 12 x 12 mass matrix has 12 to 48 nonzeros, a
/// spherical joint's 3 x 24 Jacobian 12, the 6 Hessians of a body's orthonormality 27 in all.
///
/// The data lives in an arena the caller provides, which must outlive the objects and frees all
/// their data at once; it stores equal arrays once, so alike elements share their data. The
/// objects themselves are small views (spans into the arena).
#include <cstddef>
#include <memory_resource>
#include <span>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <noether/engine/constraint.hpp>

namespace noether {

/// Storage for constant element data that keeps every distinct array once: identical arrays (all
/// the bars of a chain have the same mass matrix, orthonormality Hessians and joint Jacobians in
/// local numbering) share one copy, so an assembly over many alike elements reads its constant
/// data from cache instead of streaming a copy per element. Frees everything at once.
class Arena {
 public:
  /// The stored copy of `bytes` (an earlier one when the same bytes were stored before), aligned
  /// for any type; valid as long as the arena.
  const std::byte* intern(std::span<const std::byte> bytes);

 private:
  std::pmr::monotonic_buffer_resource memory_;
  std::unordered_set<std::string_view> stored_;  ///< views of the stored copies
};

/// A copy of `values` in the arena (shared with any equal array stored before), valid as long as
/// the arena.
template <class T>
std::span<const T> copy_to(Arena& arena, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  if (values.empty()) return {};
  const std::byte* data = arena.intern(std::as_bytes(std::span<const T>(values)));
  return {reinterpret_cast<const T*>(data), values.size()};
}

/// A constant rows x cols matrix A as its nonzero entries (column by column). The add_ methods
/// accumulate into dense vectors and matrices of matching size.
class SparseEntries {
 public:
  struct Entry {
    Index row, col;
    double value;
  };

  /// No entries (a zero matrix).
  SparseEntries() = default;
  /// The nonzeros of A, stored in the arena.
  SparseEntries(const Matrix& A, Arena& arena);

  std::span<const Entry> entries() const { return entries_; }

  /// y += s * A x   (x: cols, y: rows).
  void add_product(ConstVectorRef x, double s, VectorRef y) const {
    for (const Entry& e : entries_) y(e.row) += s * e.value * x(e.col);
  }
  /// y += s * A^T x   (x: rows, y: cols).
  void add_transpose_product(ConstVectorRef x, double s, VectorRef y) const {
    for (const Entry& e : entries_) y(e.col) += s * e.value * x(e.row);
  }
  /// K += s * A   (rows x cols).
  void add_to(double s, MatrixRef K) const {
    for (const Entry& e : entries_) K(e.row, e.col) += s * e.value;
  }

 private:
  std::span<const Entry> entries_;
};

/// A constraint of degree <= 2 (nonlinearity() linear or quadratic) as its constant data:
///
///   g_k(q) = c_k + L_k.q + 1/2 q^T H_k q,   G(q) = L + [(H_k q)^T]_k,   D^2 g_k = H_k,
///
/// read once as c = g(0), L = G(0) (m x n) and H_k (n x n, from add_hessian_contraction with
/// lambda = e_k). Evaluations reproduce the constraint's own g, G and Hessian contraction up to
/// round-off, for q of the constraint's local size n.
class SparseQuadraticConstraint {
 public:
  using Entry = SparseEntries::Entry;

  /// Stores the data in the arena. Throws std::invalid_argument naming the constraint if its
  /// nonlinearity() is general.
  SparseQuadraticConstraint(const Constraint& constraint, Arena& arena);

  Index num_equations() const { return static_cast<Index>(constant_.size()); }
  bool is_linear() const { return hessian_entries_.empty(); }
  /// c = g(0) (m).
  Eigen::Map<const Vector> constant_part() const { return {constant_.data(), num_equations()}; }
  /// L = G(0) (m x n).
  const SparseEntries& linear_part() const { return linear_; }
  /// The nonzeros of H_k (n x n).
  std::span<const Entry> hessian(Index k) const {
    const auto index = static_cast<std::size_t>(k);
    return hessian_entries_.subspan(static_cast<std::size_t>(hessian_begin_[index]),
                                    static_cast<std::size_t>(hessian_begin_[index + 1] - hessian_begin_[index]));
  }

  /// g(q), overwrites g (m).
  void calc_value(ConstVectorRef q, VectorRef g) const {
    g = constant_part();
    linear_.add_product(q, 1.0, g);
    for (Index k = 0; k < num_equations(); ++k) {
      double form = 0.0;  // q^T H_k q
      for (const Entry& e : hessian(k)) form += q(e.row) * (e.value * q(e.col));
      g(k) += 0.5 * form;
    }
  }
  /// G += G(q)   (m x n).
  void add_jacobian(ConstVectorRef q, MatrixRef G) const {
    linear_.add_to(1.0, G);
    for (Index k = 0; k < num_equations(); ++k)
      for (const Entry& e : hessian(k)) G(k, e.row) += e.value * q(e.col);
  }
  /// r += G(q)^T lambda   (lambda: m, r: n).
  void add_jacobian_transpose_product(ConstVectorRef q, ConstVectorRef lambda, VectorRef r) const {
    linear_.add_transpose_product(lambda, 1.0, r);
    for (Index k = 0; k < num_equations(); ++k)
      for (const Entry& e : hessian(k)) r(e.row) += lambda(k) * (e.value * q(e.col));
  }
  /// K += s * sum_k lambda_k H_k   (n x n).
  void add_hessian_contraction(ConstVectorRef lambda, double s, MatrixRef K) const {
    for (Index k = 0; k < num_equations(); ++k)
      for (const Entry& e : hessian(k)) K(e.row, e.col) += s * lambda(k) * e.value;
  }

 private:
  std::span<const double> constant_;        ///< c (m)
  SparseEntries linear_;                     ///< L (m x n)
  std::span<const Entry> hessian_entries_;  ///< the nonzeros of H_0, H_1, ... in turn
  std::span<const Index> hessian_begin_;    ///< H_k's entries: [begin[k], begin[k + 1]) (m + 1)
};

}  // namespace noether
