#pragma once
/// Sparse test matrices for the linear solver and Newton tests: a matrix as the solvers take it
/// (pattern and values) and the saddle-point shape of the steppers' Newton matrices.
#include <random>
#include <utility>
#include <vector>

#include <Eigen/SparseCore>

#include <noether/engine/sparse_pattern.hpp>

namespace noether::testing {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;
using Triplets = std::vector<Eigen::Triplet<double, Index>>;

/// A square sparse matrix as the solvers take it: a pattern and values in pattern order.
struct SparseSystem {
  CscPattern pattern;
  std::vector<double> values;
};

inline SparseSystem to_csc(SparseMatrix A) {
  A.makeCompressed();  // setFromTriplets leaves row indices sorted within each column
  SparseSystem s;
  s.pattern.n = static_cast<Index>(A.rows());
  s.pattern.column_starts.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.cols() + 1);
  s.pattern.row_indices.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
  s.values.assign(A.valuePtr(), A.valuePtr() + A.nonZeros());
  return s;
}

inline SparseMatrix from_triplets(Index n, const Triplets& triplets) {
  SparseMatrix A(n, n);
  A.setFromTriplets(triplets.begin(), triplets.end());
  return A;
}

/// The 5-point Laplacian of a side x side grid, numbered row by row (a band of width side), with
/// 4.2 on the diagonal (diagonally dominant: every ordering factors it without pivoting).
inline SparseMatrix grid_laplacian(Index side) {
  Triplets t;
  for (Index i = 0; i < side; ++i)
    for (Index j = 0; j < side; ++j) {
      const Index k = i * side + j;
      t.emplace_back(k, k, 4.2);
      if (i + 1 < side) t.insert(t.end(), {{k, k + side, -1.0}, {k + side, k, -1.0}});
      if (j + 1 < side) t.insert(t.end(), {{k, k + 1, -1.0}, {k + 1, k, -1.0}});
    }
  return from_triplets(side * side, t);
}

/// The shape of a Newton matrix of a constrained step: [K G^T; G 0] with K (d x d) an
/// unsymmetric banded stiffness and G (m x d) of full row rank; the zero block's diagonal is
/// stored explicitly, as the assembler does. Needs d >= 3 m + 2.
inline SparseMatrix saddle_point_matrix(Index d, Index m, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Triplets t;
  for (Index i = 0; i < d; ++i) {
    t.emplace_back(i, i, 4.0 + value(generator));
    if (i + 1 < d) {
      t.emplace_back(i, i + 1, -1.0 + 0.3 * value(generator));
      t.emplace_back(i + 1, i, -1.0 + 0.3 * value(generator));
    }
  }
  for (Index r = 0; r < m; ++r) {
    // Row r touches coordinates 3r (weight ~1, making the rows independent), 3r + 1 and 3r + 4.
    for (const auto& [col, w] : {std::pair{3 * r, 1.0 + 0.2 * value(generator)}, std::pair{3 * r + 1, value(generator)},
                                 std::pair{3 * r + 4, value(generator)}}) {
      t.emplace_back(d + r, col, w);
      t.emplace_back(col, d + r, w);
    }
    t.emplace_back(d + r, d + r, 0.0);
  }
  return from_triplets(d + m, t);
}

}  // namespace noether::testing
