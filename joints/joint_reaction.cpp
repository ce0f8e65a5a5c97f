#include <noether/joints/joint_reaction.hpp>

#include <utility>

namespace noether {

JointReactionSite::JointReactionSite(std::string joint, Index block_position, BodyKinematics body, Vector origin,
                                     Matrix axes)
    : joint_(std::move(joint)),
      block_position_(block_position),
      body_(body),
      origin_(std::move(origin)),
      axes_(std::move(axes)) {}

Reaction JointReactionSite::layout() const {
  Reaction r;
  r.joint = joint_;
  r.dimension = body_.dimension();
  r.has_moment = body_.has_directors();
  r.has_frame = axes_.size() > 0;
  return r;
}

Reaction JointReactionSite::calc_reaction(ConstVectorRef q, ConstVectorRef f) const {
  const BodyWrench w = body_.wrench(q, f, origin_);
  const Index dim = body_.dimension();
  Reaction r = layout();
  r.force = w.force;
  r.moment = w.moment;
  if (!r.has_frame) return r;
  Matrix directors(dim, dim);
  for (Index i = 0; i < dim; ++i) directors.col(i) = q.segment(dim * (i + 1), dim);
  const Matrix frame = directors * axes_;  // world axes e_k, one per column
  r.force_in_frame.head(dim) = frame.transpose() * w.force.head(dim);
  if (dim == 3)
    r.moment_in_frame = frame.transpose() * w.moment;
  else
    r.moment_in_frame = w.moment;
  return r;
}

}  // namespace noether
