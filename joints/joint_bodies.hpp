#pragma once
/// The one or two bodies a joint connects, seen as affine functions of the joint's local
/// coordinates, with the input checks every joint family shares.
///
/// Side B is always a body; side A is a body or the ground. The joint's local coordinates are
/// (q_A, q_B) for two bodies and q_B for the ground. Attachment data of a body is given in its body
/// coordinates (x = phi + X_i d_i, n = N_i d_i); the ground is the world frame, so its points and
/// directions are constants given in world coordinates.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <noether/bodies/kinematics.hpp>
#include <noether/joints/quadratic_joint.hpp>

namespace noether {

/// What a joint family asks of its bodies, and its name for error messages ("revolute joint").
struct JointFamily {
  std::string kind;
  Index dimension;         ///< 2 or 3
  bool needs_orientation;  ///< true: director bodies only (no point masses)
};

/// A joint frame on one side (3D): the joint point and two directions, in body coordinates
/// (world coordinates on the ground). The frame axes are e1 = axis/|axis|, e2 = the part of
/// `normal` orthogonal to e1, normalized, and e3 = e1 x e2.
struct JointFrame {
  Vector origin;
  Vector axis;
  Vector normal;
};

class JointBodies {
 public:
  /// Body A to body B. Throws std::invalid_argument naming the joint if a body is not of the
  /// family's dimension, is a point mass although the family needs orientation, or if A and B are
  /// the same block.
  JointBodies(const std::string& joint_name, const JointFamily& family, const BodyRef& a, const BodyRef& b);
  /// The ground (side A) to body B; same checks.
  JointBodies(const std::string& joint_name, const JointFamily& family, const BodyRef& b);

  /// Number of local coordinates n: size(q_A) + size(q_B), or size(q_B).
  Index size() const { return size_; }
  Index dimension() const { return dimension_; }

  /// x_A(q) = P_A(X) q_A (dim x n map), or the constant world point X on the ground.
  AffineVector point_a(const Vector& X) const { return point(a_, X); }
  AffineVector point_b(const Vector& X) const { return point(b_, X); }
  /// n_A(q) = N_i d^A_i = D_A(N) q_A, or the constant world direction N on the ground.
  AffineVector direction_a(const Vector& N) const { return direction(a_, N); }
  AffineVector direction_b(const Vector& N) const { return direction(b_, N); }

  /// N / |N|: any finite direction with a nonzero entry, of any length (an axis (0, 1e300, 0) or
  /// (0, 1e-300, 0) is the y axis). Where |N|^2 overflows or underflows it normalizes N / max|N_i|
  /// instead, whose square is representable. Throws naming the joint and `what` if N does not have
  /// dimension() entries, is not finite or is zero.
  Vector unit(const Vector& N, const std::string& what) const;
  /// The orthonormal right-handed axes (e1, e2, e3) of a 3D joint frame (see JointFrame). Throws
  /// if the axis or normal is zero or the normal is parallel to the axis.
  std::array<Vector, 3> frame_axes(const JointFrame& frame, const std::string& what) const;

  /// The QuadraticJoint named after the joint with these equations on the joint's blocks. It
  /// reports its reaction on body B (JointReactionSite) about B's body-fixed point origin_b, in the
  /// frame whose axes are the columns of axes_b (B's body coordinates, orthonormal; empty: none).
  std::shared_ptr<Constraint> make_joint(std::vector<QuadraticEquation> equations, const Vector& origin_b,
                                         const Matrix& axes_b = Matrix()) const;

  /// The joint's name.
  const std::string& name() const { return name_; }
  /// The joint's blocks: [A, B], or [B] against the ground.
  std::vector<BlockId> blocks() const;
  /// The site make_joint gives its joint: body B's wrench about origin_b, in the frame axes_b.
  std::shared_ptr<const ReactionSite> reaction_site(const Vector& origin_b, const Matrix& axes_b = Matrix()) const;

  /// "revolute joint 'hinge'", the prefix of every error message.
  const std::string& label() const { return label_; }

 private:
  struct Side {
    std::optional<BodyRef> body;  ///< empty: the ground
    Index offset = 0;             ///< first column of the body's coordinates in q
  };
  void check_body(const BodyRef& body, const JointFamily& family) const;
  AffineVector point(const Side& side, const Vector& X) const;
  AffineVector direction(const Side& side, const Vector& N) const;
  void check_size(const Vector& v, const std::string& what) const;

  std::string name_;
  std::string label_;
  Index dimension_;
  Side a_, b_;
  Index size_;
};

}  // namespace noether
