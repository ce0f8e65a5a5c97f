#pragma once
/// Constant element data read once through the engine interfaces and kept as lists of nonzeros,
/// so that a stepper's per-iteration work on it costs O(nonzeros) instead of dense m x n or n x n
/// products of dynamic size. A director body's 12 x 12 mass matrix has 12 to 48 nonzeros, a
/// spherical joint's 3 x 24 Jacobian 12, the 6 Hessians of a body's orthonormality 27 in all.
#include <vector>

#include "engine/constraint.hpp"

namespace noether {

/// A constant rows x cols matrix A as its nonzero entries (column by column). The add_ methods
/// accumulate into dense vectors and matrices of matching size.
class SparseEntries {
 public:
  SparseEntries() = default;
  /// The nonzeros of A.
  explicit SparseEntries(const Matrix& A);

  /// y += s * A x   (x: cols, y: rows).
  void add_product(ConstVectorRef x, double s, VectorRef y) const;
  /// y += s * A^T x   (x: rows, y: cols).
  void add_transpose_product(ConstVectorRef x, double s, VectorRef y) const;
  /// K += s * A   (rows x cols).
  void add_to(double s, MatrixRef K) const;
  /// K += s * A^T   (cols x rows).
  void add_transpose_to(double s, MatrixRef K) const;

 private:
  struct Entry {
    Index row, col;
    double value;
  };
  std::vector<Entry> entries_;
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
  /// Throws std::invalid_argument naming the constraint if its nonlinearity() is general.
  explicit SparseQuadraticConstraint(const Constraint& constraint);

  Index num_equations() const { return static_cast<Index>(constant_.size()); }
  bool is_linear() const { return second_order_.empty(); }
  /// L = G(0) (m x n): the whole Jacobian when is_linear().
  const SparseEntries& linear_part() const { return linear_; }

  /// g(q), overwrites g (m).
  void calc_value(ConstVectorRef q, VectorRef g) const;
  /// G += s * G(q)   (m x n).
  void add_jacobian(ConstVectorRef q, double s, MatrixRef G) const;
  /// Gt += s * G(q)^T   (n x m).
  void add_jacobian_transpose(ConstVectorRef q, double s, MatrixRef Gt) const;
  /// r += s * G(q)^T lambda   (lambda: m, r: n).
  void add_jacobian_transpose_product(ConstVectorRef q, ConstVectorRef lambda, double s, VectorRef r) const;
  /// K += s * sum_k lambda_k H_k   (n x n).
  void add_hessian_contraction(ConstVectorRef lambda, double s, MatrixRef K) const;

 private:
  /// H_equation(row, col) = value.
  struct SecondOrderEntry {
    Index equation, row, col;
    double value;
  };
  Vector constant_;                              ///< c (m)
  SparseEntries linear_;                         ///< L (m x n)
  std::vector<SecondOrderEntry> second_order_;  ///< nonzeros of all H_k
};

}  // namespace noether
