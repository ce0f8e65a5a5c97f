#pragma once
/// The inertia of a director body or a point mass: a constant mass matrix with Kronecker structure.
#include <Eigen/Core>

#include <noether/engine/inertia.hpp>

namespace noether {

/// Kinetic energy T = 1/2 sum_ab Mbar_ab x_a'.x_b' of one body whose coordinates are k points
/// x_0, ..., x_{k-1} in R^dim stacked as q = (x_0, ..., x_{k-1}) (n = k dim): M = kron(Mbar, I_dim).
/// A 3D director body has k = 4 (phi, d1, d2, d3), a planar one k = 3, a point mass k = 1
/// (see body_properties.hpp for Mbar from physical data). M(dim a + i, dim b + i) = Mbar_ab.
/// x_0 is a point of the body and x_1, ... are directions (x(X) = x_0 + X_b x_b), which is how
/// rigid motions move them: the element's momentum map (Inertia::momenta) is the body's linear
/// momentum L = sum_b Mbar_0b x_b' and angular momentum J_o = sum_ab Mbar_ab (x_a - o delta_a0) x x_b'.
class DirectorInertia final : public ConstantMassInertia {
 public:
  /// positivity everywhere (the default): Mbar must be positive semidefinite (it may be singular).
  /// admitted_motions: a 3D director body (k = 4) whose Mbar = [[m, m c^T], [m c, E_o]] may be
  /// indefinite, but whose kinetic energy on the motions of orthonormal directors,
  /// 1/2 m |v_c|^2 + 1/2 omega.J_c omega with J_c = tr(E_c) I - E_c and E_c = E_o - m c c^T, is
  /// positive: m > 0 and J_c positive semidefinite (body_properties.hpp, InertiaRequirement).
  /// Throws std::invalid_argument naming the element if dimension is not 2 or 3, or Mbar is empty,
  /// not square, not finite, not symmetric, has a subnormal entry or one of 1e150 or more
  /// (check_entry_magnitudes), or
  /// does not meet its positivity (eigenvalues below -1e-12 max|Mbar| count as negative). The block
  /// must have k * dimension coordinates.
  DirectorInertia(std::string name, BlockId block, Index dimension, Matrix mass_coefficients,
                  MassPositivity positivity = MassPositivity::everywhere);

  Index dimension() const { return dimension_; }
  /// Mbar (k x k).
  const Matrix& mass_coefficients() const { return coefficients_; }

 protected:
  const RigidMotionLayout* do_rigid_motion_layout() const override { return &layout_; }

 private:
  Index dimension_;
  Matrix coefficients_;
  RigidMotionLayout layout_;
};

}  // namespace noether
