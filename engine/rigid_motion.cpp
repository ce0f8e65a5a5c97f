#include <noether/engine/rigid_motion.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>

namespace noether {

RigidMotionLayout::RigidMotionLayout(Index dimension, std::vector<SpatialRole> roles)
    : dimension_(dimension), roles_(std::move(roles)) {
  if (dimension_ != 2 && dimension_ != 3)
    throw std::invalid_argument("rigid motion layout: dimension is " + std::to_string(dimension_) + "; give 2 or 3");
  if (roles_.empty()) throw std::invalid_argument("rigid motion layout: give the role of at least one point or direction");
}

RigidMotionLayout RigidMotionLayout::body(Index dimension, Index directions) {
  std::vector<SpatialRole> roles{SpatialRole::point};
  roles.resize(static_cast<std::size_t>(1 + std::max<Index>(directions, 0)), SpatialRole::direction);
  return {dimension, std::move(roles)};
}

Momenta RigidMotionLayout::momenta(ConstVectorRef q, ConstVectorRef p, const Eigen::Vector3d& about) const {
  const auto embedded = [&](ConstVectorRef x, Index a) {
    Eigen::Vector3d out = Eigen::Vector3d::Zero();
    out.head(dimension_) = x.segment(dimension_ * a, dimension_);
    return out;
  };
  Momenta m;
  for (std::size_t a = 0; a < roles_.size(); ++a) {
    const Index i = static_cast<Index>(a);
    const Eigen::Vector3d p_a = embedded(p, i);
    Eigen::Vector3d x_a = embedded(q, i);
    if (roles_[a] == SpatialRole::point) {
      m.linear += p_a;
      x_a -= about;
    }
    m.angular += x_a.cross(p_a);
  }
  return m;
}

}  // namespace noether
