#pragma once
/// The two points a point-to-point force element acts between: a body-fixed point of body a, and a
/// body-fixed point of body b or a fixed world point (the ground). Director bodies and point masses
/// are linear in their coordinates (bodies/kinematics.hpp), so their separation is affine in q.
#include <string>
#include <vector>

#include <noether/bodies/kinematics.hpp>

namespace noether {

/// body.kinematics.point_map(X) (bodies/kinematics.hpp), its std::invalid_argument prefixed with `context`
/// (for example "gravity 'g'") and the body's name.
Matrix point_map_of(const std::string& context, const BodyRef& body, const Vector& X);

/// r(q) = x_a - x_b = J q + r_0, with q the concatenated coordinates of the bodies involved
/// (blocks(): [a, b], or [a] against the ground), J = [P_a(X_a), -P_b(X_b)] or P_a(X_a), and
/// r_0 = 0 or -x_ground. Sizes: r dimension(), J dimension() x local_size().
class ForcePointPair {
 public:
  /// Point X_a (body coordinates of a) and point X_b (body coordinates of b). Throws
  /// std::invalid_argument if the bodies differ in dimension, share a block, or a point has the
  /// wrong size (or an offset on a point mass).
  ForcePointPair(const BodyRef& a, const Vector& X_a, const BodyRef& b, const Vector& X_b);
  /// Point X_a of body a and the fixed world point x_ground (dimension() entries).
  ForcePointPair(const BodyRef& a, const Vector& X_a, const Vector& x_ground);

  const std::vector<BlockId>& blocks() const { return blocks_; }
  Index local_size() const { return static_cast<Index>(jacobian_.cols()); }
  Index dimension() const { return static_cast<Index>(jacobian_.rows()); }
  /// r(q) = x_a - x_b   (dimension()).
  Vector separation(ConstVectorRef q) const { return jacobian_ * q + offset_; }
  /// J = dr/dq, constant   (dimension() x local_size()).
  const Matrix& jacobian() const { return jacobian_; }

 private:
  std::vector<BlockId> blocks_;
  Matrix jacobian_;
  Vector offset_;
};

}  // namespace noether
