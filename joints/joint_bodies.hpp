#pragma once
/// The one or two bodies a joint connects, seen as affine functions of the joint's local
/// coordinates, plus the checks and small geometric helpers every joint family shares.
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

#include "bodies/kinematics.hpp"
#include "joints/quadratic_joint.hpp"

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

  /// N / |N|. Throws naming the joint and `what` if N does not have dimension() entries, is not
  /// finite or has zero length.
  Vector unit(const Vector& N, const std::string& what) const;
  /// The orthonormal right-handed axes (e1, e2, e3) of a 3D joint frame (see JointFrame). Throws
  /// if the axis or normal is zero or the normal is parallel to the axis.
  std::array<Vector, 3> frame_axes(const JointFrame& frame, const std::string& what) const;

  /// The QuadraticJoint with these equations on the joint's blocks.
  std::shared_ptr<Constraint> make_joint(const std::string& joint_name, std::vector<QuadraticEquation> equations) const;

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

  std::string label_;
  Index dimension_;
  Side a_, b_;
  Index size_;
};

/// Two unit vectors (n1, n2) completing a unit 3-vector `axis` to the right-handed orthonormal
/// triad (axis, n1, n2). Deterministic: n1 is built from the coordinate axis least aligned with `axis`.
std::array<Vector, 2> normal_pair(const Vector& axis);
/// The planar vector u turned by +90 degrees: (-u_2, u_1).
Vector perpendicular(const Vector& u);

}  // namespace noether

namespace noether {

/// x_B(X_b) - x_A(X_a) = 0: dim linear equations (a point of A, or a world point, coincides with a
/// point of B). Full rank dim in every configuration.
std::vector<QuadraticEquation> coincidence_equations(const JointBodies& bodies, const Vector& X_a, const Vector& X_b);

/// a_A . n1_B = 0,  a_A . n2_B = 0  (2 bilinear, 3D): the unit axis a of A stays parallel to the
/// axis of B normal to the unit vectors n1, n2 of B. Rank 2 for a_A = +-(n1 x n2)_B; singular when
/// a_A lies in the plane of n1_B, n2_B (axes perpendicular).
std::vector<QuadraticEquation> parallel_axes_equations(const JointBodies& bodies, const Vector& a,
                                                       const Vector& n1, const Vector& n2);

/// e1_A . f2_B = 0,  e1_A . f3_B = 0,  e2_A . f3_B = 0  (3 bilinear, 3D): the orthonormal frame
/// axes e of A and f of B stay aligned (entries (1,2), (1,3), (2,3) of E_A^T E_B vanish). Full rank at
/// E_A = E_B; singular at a relative quarter turn about any frame axis (rank loss 1 about e1 or e3,
/// 2 about e2).
std::vector<QuadraticEquation> aligned_frames_equations(const JointBodies& bodies, const std::array<Vector, 3>& e,
                                                        const std::array<Vector, 3>& f);

/// Appends `more` to `equations`.
void append(std::vector<QuadraticEquation>& equations, std::vector<QuadraticEquation> more);

}  // namespace noether
