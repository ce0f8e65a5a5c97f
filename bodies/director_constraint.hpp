#pragma once
/// The internal constraints of a director body: its directors stay orthonormal.
#include <noether/engine/constraint.hpp>

namespace noether {

/// Rigidity of a director body with q = (phi, d_1, ..., d_dim), each in R^dim (n = dim (dim + 1)):
///
///   g = ( 1/2 (d_i.d_i - 1) for i = 1..dim,   d_i.d_j for i < j in lexicographic order )
///
/// m = dim (dim + 1) / 2 rows: 6 in 3D ([KinonBetschSchneider2023, eq. (61)]), 3 in the plane
/// (eq. (73)). Quadratic, so the midpoint Jacobian is the exact discrete gradient and D^2 g_k is
/// constant; these are its exact form (engine/exact_form.hpp):
///   row (i,i):  G = d_i^T in the columns of d_i;       D^2 g = I in block (d_i, d_i)
///   row (i,j):  G = d_j^T at d_i and d_i^T at d_j;     D^2 g = I in blocks (d_i, d_j), (d_j, d_i)
/// phi does not enter (its columns are zero).
class DirectorOrthonormality final : public QuadraticConstraint {
 public:
  /// Throws std::invalid_argument naming the element if dimension is not 2 or 3.
  DirectorOrthonormality(std::string name, BlockId block, Index dimension);
};

}  // namespace noether
