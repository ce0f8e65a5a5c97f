#include <noether/joints/force_point_pair.hpp>

#include <stdexcept>

#include <noether/engine/quote.hpp>

namespace noether {

Matrix point_map_of(const std::string& context, const BodyRef& body, const Vector& X) {
  try {
    return body.kinematics.point_map(X);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(context + ", body " + quote(body.name) + ": " + error.what());
  }
}

ForcePointPair::ForcePointPair(const BodyRef& a, const Vector& X_a, const BodyRef& b, const Vector& X_b)
    : blocks_{a.block, b.block} {
  const Index dim = a.kinematics.dimension();
  if (b.kinematics.dimension() != dim)
    throw std::invalid_argument("point pair between body " + quote(a.name) + " and body " + quote(b.name) +
                                ": the bodies live in different dimensions (" + std::to_string(dim) + " and " +
                                std::to_string(b.kinematics.dimension()) + ")");
  if (a.block == b.block)
    throw std::invalid_argument("point pair on body " + quote(a.name) +
                                ": both points are on the same body, so their distance never changes; "
                                "attach the second point to another body or to the ground");
  const Matrix P_a = point_map_of("point pair", a, X_a);
  const Matrix P_b = point_map_of("point pair", b, X_b);
  jacobian_.resize(dim, P_a.cols() + P_b.cols());
  jacobian_ << P_a, -P_b;
  offset_ = Vector::Zero(dim);
}

ForcePointPair::ForcePointPair(const BodyRef& a, const Vector& X_a, const Vector& x_ground)
    : blocks_{a.block}, jacobian_(point_map_of("point pair", a, X_a)), offset_(-x_ground) {
  if (x_ground.size() != a.kinematics.dimension())
    throw std::invalid_argument("point pair between body " + quote(a.name) + " and the ground: the ground point has " +
                                std::to_string(x_ground.size()) + " entries, the body lives in dimension " +
                                std::to_string(a.kinematics.dimension()));
}

}  // namespace noether
