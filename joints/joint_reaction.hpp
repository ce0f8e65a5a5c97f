#pragma once
/// Where a joint of the library reports its reaction: on its second body (side B, the last of its
/// blocks), about its joint point on B, and in its joint frame on B where the joint has one.
#include <string>

#include <noether/bodies/kinematics.hpp>
#include <noether/engine/reaction.hpp>

namespace noether {

class JointReactionSite final : public ReactionSite {
 public:
  /// joint: the joint's name (Reaction::joint). block_position: side B's index in the joint's
  /// blocks. body: side B's layout. origin: the joint point on B in body coordinates (dimension()
  /// entries; zero for a point mass). axes: the joint frame's axes in B's body coordinates, one per
  /// column (dimension() x dimension(), orthonormal), or empty (0 x 0) for a joint without a frame.
  JointReactionSite(std::string joint, Index block_position, BodyKinematics body, Vector origin, Matrix axes);

  Index block_position() const override { return block_position_; }
  Reaction layout() const override;
  /// The body's wrench (BodyKinematics::wrench) about the joint point; in the frame, the world
  /// vectors' components along the frame axes at q: e_k = sum_i axes(i, k) d_i.
  Reaction calc_reaction(ConstVectorRef q, ConstVectorRef f) const override;

 private:
  std::string joint_;
  Index block_position_;
  BodyKinematics body_;
  Vector origin_;
  Matrix axes_;
};

}  // namespace noether
