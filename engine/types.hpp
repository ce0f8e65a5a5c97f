#pragma once
/// Basic numeric types shared by every layer of Noether.
#include <cstdint>

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
/// System::add_block stamps it with the system's serial number, so that a System refuses the
/// handle of another (a BodyRef from another Mechanism) instead of taking the block of the same
/// index; a handle made by hand (BlockId{2}, system 0) names block 2 of whichever system takes it.
struct BlockId {
  Index value = -1;
  std::uint64_t system = 0;  ///< the serial number of the System that made it, 0 for none
  auto operator<=>(const BlockId&) const = default;
};

/// How a scalar or vector function of the coordinates depends on them. Polynomial degree at
/// most two makes the midpoint gradient an exact discrete gradient and the Hessian constant.
enum class Nonlinearity { linear, quadratic, general };

inline bool is_at_most_quadratic(Nonlinearity n) { return n != Nonlinearity::general; }

}  // namespace noether
