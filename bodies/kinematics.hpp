#pragma once
/// The kinematic accessor joints and force elements are written against: director bodies and
/// point masses are linear in their coordinates, so a body-fixed point and a body-fixed direction
/// are linear maps of the body's coordinate block.
///
/// Coordinate layouts (fixed for the whole project):
///   3D director body  (12): q = (phi, d1, d2, d3), each in R^3;  x(X) = phi + X_1 d1 + X_2 d2 + X_3 d3
///   planar director   ( 6): q = (phi, d1, d2),     each in R^2;  x(X) = phi + X_1 d1 + X_2 d2
///   point mass        (2/3): q = x
/// phi is the body's reference point (its centre of mass when the body is built that way) and the
/// d_i are its orthonormal body axes (kept orthonormal by the body's internal constraints).
#include <string>
#include <vector>

#include <Eigen/Core>

#include <noether/engine/types.hpp>

namespace noether {

enum class BodyKind { director3d, planar_director, point_mass2d, point_mass3d };

/// A force and a moment on a body, world components. Planar bodies: force (fx, fy, 0), moment
/// (0, 0, mz). A point mass: the moment is zero (it has no orientation to be turned).
struct BodyWrench {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
};

class BodyKinematics {
 public:
  explicit BodyKinematics(BodyKind kind) : kind_(kind) {}
  BodyKind kind() const { return kind_; }
  /// Spatial dimension: 2 or 3.
  Index dimension() const;
  /// Number of coordinates of the body's block: 12, 6, 2 or 3.
  Index size() const;
  bool has_directors() const { return kind_ == BodyKind::director3d || kind_ == BodyKind::planar_director; }
  /// The names of the block's coordinates, in order (size() of them), which head their output
  /// columns: "phi.x", ..., "d1.x", ... for a director body, "x", "y" (, "z") for a point mass.
  std::vector<std::string> coordinate_names() const;

  /// P(X) with x(X) = P(X) q   (dimension() x size()); X has dimension() entries (body coordinates
  /// of the point; ignored, and must be zero, for a point mass).
  Matrix point_map(const Vector& X) const;
  /// D(N) with n(N) = N_i d_i = D(N) q   (dimension() x size()). Throws std::invalid_argument for a
  /// point mass, which has no orientation.
  Matrix direction_map(const Vector& N) const;

  /// The wrench about the body-fixed point X (as point_map) of the generalized force f on the
  /// body's coordinates q (size() entries each): the force F and moment M whose virtual work on
  /// every rigid motion equals f's. With r = x(X) - phi,
  ///   F = f_phi,   M = sum_i d_i x f_{d_i} - r x F
  /// (planar: the z components of the same cross products; a point mass: F = f, M = 0). The part
  /// of f that would stretch or shear the directors does no work on a rigid motion and is not
  /// in the wrench: the body's orthonormality constraints carry it.
  BodyWrench wrench(ConstVectorRef q, ConstVectorRef f, const Vector& X) const;

 private:
  BodyKind kind_;
};

/// A body as joints and force elements see it: its coordinate block, its layout and its name
/// (for error messages). Joints to the ground take no BodyRef for that side.
struct BodyRef {
  BlockId block;
  BodyKinematics kinematics;
  std::string name;
};

}  // namespace noether
