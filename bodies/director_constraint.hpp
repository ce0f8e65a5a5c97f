#pragma once
/// The internal constraints of a director body: its directors stay orthonormal.
#include <utility>
#include <vector>

#include <noether/engine/constraint.hpp>

namespace noether {

/// Rigidity of a director body with q = (phi, d_1, ..., d_dim), each in R^dim (n = dim (dim + 1)):
///
///   g = ( 1/2 (d_i.d_i - 1) for i = 1..dim,   d_i.d_j for i < j in lexicographic order )
///
/// m = dim (dim + 1) / 2 rows: 6 in 3D ([KinonBetschSchneider2023, eq. (61)]), 3 in the plane
/// (eq. (73)). Quadratic, so the midpoint Jacobian is the exact discrete gradient and D^2 g_k is constant:
///   row (i,i):  G = d_i^T in the columns of d_i;       D^2 g = I in block (d_i, d_i)
///   row (i,j):  G = d_j^T at d_i and d_i^T at d_j;     D^2 g = I in blocks (d_i, d_j), (d_j, d_i)
/// phi does not enter (its columns are zero).
class DirectorOrthonormality final : public Constraint {
 public:
  /// Throws std::invalid_argument naming the element if dimension is not 2 or 3.
  DirectorOrthonormality(std::string name, BlockId block, Index dimension);

  Index local_size() const override { return dimension_ * (dimension_ + 1); }
  Index num_equations() const override { return static_cast<Index>(pairs_.size()); }
  Nonlinearity nonlinearity() const override { return Nonlinearity::quadratic; }

 protected:
  void do_calc_value(ConstVectorRef q, VectorRef g) const override;
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const override;
  void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const override;

 private:
  /// First local coordinate of director i (0-based: d_1 is i = 0).
  Index director_offset(Index i) const { return dimension_ * (i + 1); }

  Index dimension_;
  std::vector<std::pair<Index, Index>> pairs_;  ///< (i, j) of each row, 0-based directors
};

}  // namespace noether
