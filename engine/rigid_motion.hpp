#pragma once
/// How rigid motions of the world move an element's coordinates, and the momentum map that follows.
///
/// An inertia element whose coordinates are points and directions of space, q = (x_0, ..., x_{k-1})
/// with every x_a in R^dim, states which x_a are points (a translation by a moves them to x_a + a)
/// and which are directions (a translation leaves them); a rotation R about the origin takes every
/// x_a to R x_a (in the plane, dim = 2, the rotations about e_z). A director body is one point
/// (phi) and dim directions (d_i); a point mass is one point. With its momentum p = M(q) v split
/// the same way, p = (p_0, ..., p_{k-1}), the momentum map of these symmetries is
///
///   L   = sum over points a of p_a                                 (linear momentum)
///   J_o = sum over points a of (x_a - o) x p_a + sum over directions a of x_a x p_a
///       = J_0 - o x L                                              (angular momentum about o)
///
/// For a director body L = m phi' + m (c_i d_i)', the momentum of its centre of mass, and J_o is
/// int rho (x - o) x x' dV (bodies/body_properties.hpp): the physical momenta. Planar vectors are
/// embedded in R^3 with z = 0, so that L_z = 0 and only J_z can be non-zero.
#include <vector>

#include <Eigen/Core>

#include <noether/engine/types.hpp>

namespace noether {

/// The linear momentum and the angular momentum about a point (3 entries each).
struct Momenta {
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();

  Momenta& operator+=(const Momenta& other) {
    linear += other.linear;
    angular += other.angular;
    return *this;
  }
};

/// What each x_a of q = (x_0, ..., x_{k-1}) is (see the file comment).
enum class SpatialRole { point, direction };

class RigidMotionLayout {
 public:
  /// dimension: 2 or 3; roles: one per x_a (k >= 1). Throws std::invalid_argument otherwise.
  RigidMotionLayout(Index dimension, std::vector<SpatialRole> roles);
  /// One point followed by `directions` directions (>= 0): a director body (phi, d_1, ..., d_dim)
  /// has dim of them, a point mass none.
  static RigidMotionLayout body(Index dimension, Index directions);

  Index dimension() const { return dimension_; }
  /// k * dimension(): the coordinates the layout describes.
  Index size() const { return dimension_ * static_cast<Index>(roles_.size()); }

  /// L and J about `about` of coordinates q with momentum p (size() entries each; the equations of
  /// the file comment).
  Momenta momenta(ConstVectorRef q, ConstVectorRef p, const Eigen::Vector3d& about) const;

 private:
  Index dimension_;
  std::vector<SpatialRole> roles_;
};

}  // namespace noether
