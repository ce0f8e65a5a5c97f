#pragma once
/// Basic numeric types shared by every layer of Noether.
#include <Eigen/Core>

namespace noether {

/// Index type of coordinates, multipliers and sparse-matrix entries. 32 bits match the
/// SuiteSparse "int" interfaces (UMFPACK di, KLU, CHOLMOD int) used by the linear solvers.
using Index = int;

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using VectorRef = Eigen::Ref<Vector>;
using ConstVectorRef = Eigen::Ref<const Vector>;
using MatrixRef = Eigen::Ref<Matrix>;
using ConstMatrixRef = Eigen::Ref<const Matrix>;

/// Handle of a coordinate block of a System (a body, or any named group of coordinates).
struct BlockId {
  Index value = -1;
  auto operator<=>(const BlockId&) const = default;
};

/// How a scalar or vector function of the coordinates depends on them. Polynomial degree at
/// most two makes the midpoint gradient an exact discrete gradient and the Hessian constant.
enum class Nonlinearity { linear, quadratic, general };

inline bool is_at_most_quadratic(Nonlinearity n) { return n != Nonlinearity::general; }

}  // namespace noether
