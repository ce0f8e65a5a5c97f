#pragma once
/// The inertia of a director body or a point mass: a constant mass matrix with Kronecker structure.
#include <Eigen/Core>

#include <noether/engine/inertia.hpp>

namespace noether {

/// Kinetic energy T = 1/2 sum_ab Mbar_ab x_a'.x_b' of one body whose coordinates are k points
/// x_0, ..., x_{k-1} in R^dim stacked as q = (x_0, ..., x_{k-1}) (n = k dim): M = kron(Mbar, I_dim).
/// A 3D director body has k = 4 (phi, d1, d2, d3), a planar one k = 3, a point mass k = 1
/// (see body_properties.hpp for Mbar from physical data). Mbar is symmetric positive
/// semi-definite and may be singular. M(dim a + i, dim b + i) = Mbar_ab.
class DirectorInertia final : public ConstantMassInertia {
 public:
  /// Throws std::invalid_argument naming the element if dimension is not 2 or 3, or Mbar is
  /// empty, not square, not finite, not symmetric or has a negative eigenvalue (below
  /// -1e-12 max|Mbar|). The block must have k * dimension coordinates.
  DirectorInertia(std::string name, BlockId block, Index dimension, Matrix mass_coefficients);

  Index dimension() const { return dimension_; }
  /// Mbar (k x k).
  const Matrix& mass_coefficients() const { return coefficients_; }

  /// L = sum_b Mbar_0b x_b' = int rho x' dV (Xhat_0 = 1)   (v: n), embedded in R^3 (z = 0 in the plane).
  Eigen::Vector3d linear_momentum(ConstVectorRef v) const;
  /// J = sum_ab Mbar_ab x_a x x_b' = int rho x x x' dV about the world origin   (q, v: n);
  /// in the plane only J_z is non-zero.
  Eigen::Vector3d angular_momentum(ConstVectorRef q, ConstVectorRef v) const;

 private:
  /// x_a of q (or x_a' of v) embedded in R^3.
  Eigen::Vector3d point(ConstVectorRef x, Index a) const;

  Index dimension_;
  Matrix coefficients_;
};

}  // namespace noether
