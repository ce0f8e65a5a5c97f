#include <noether/bodies/kinematics.hpp>

#include <stdexcept>

#include <Eigen/Geometry>

namespace noether {

Index BodyKinematics::dimension() const {
  return (kind_ == BodyKind::director3d || kind_ == BodyKind::point_mass3d) ? 3 : 2;
}

Index BodyKinematics::size() const {
  switch (kind_) {
    case BodyKind::director3d: return 12;
    case BodyKind::planar_director: return 6;
    case BodyKind::point_mass2d: return 2;
    case BodyKind::point_mass3d: return 3;
  }
  return 0;
}

std::vector<std::string> BodyKinematics::coordinate_names() const {
  switch (kind_) {
    case BodyKind::director3d:
      return {"phi.x", "phi.y", "phi.z", "d1.x", "d1.y", "d1.z", "d2.x", "d2.y", "d2.z", "d3.x", "d3.y", "d3.z"};
    case BodyKind::planar_director: return {"phi.x", "phi.y", "d1.x", "d1.y", "d2.x", "d2.y"};
    case BodyKind::point_mass2d: return {"x", "y"};
    case BodyKind::point_mass3d: return {"x", "y", "z"};
  }
  return {};
}

Matrix BodyKinematics::point_map(const Vector& X) const {
  const Index dim = dimension();
  if (X.size() != dim)
    throw std::invalid_argument("a body-fixed point needs " + std::to_string(dim) + " coordinates, got " +
                                std::to_string(X.size()));
  Matrix P = Matrix::Zero(dim, size());
  P.leftCols(dim).setIdentity();
  if (!has_directors()) {
    if (X.squaredNorm() != 0.0)
      throw std::invalid_argument("a point mass has no extent: attach at X = 0, not at a body-fixed offset");
    return P;
  }
  for (Index i = 0; i < dim; ++i) P.middleCols(dim * (i + 1), dim) = X(i) * Matrix::Identity(dim, dim);
  return P;
}

Matrix BodyKinematics::direction_map(const Vector& N) const {
  if (!has_directors())
    throw std::invalid_argument("a point mass has no orientation, so it has no body-fixed direction");
  const Index dim = dimension();
  if (N.size() != dim)
    throw std::invalid_argument("a body-fixed direction needs " + std::to_string(dim) + " components, got " +
                                std::to_string(N.size()));
  Matrix D = Matrix::Zero(dim, size());
  for (Index i = 0; i < dim; ++i) D.middleCols(dim * (i + 1), dim) = N(i) * Matrix::Identity(dim, dim);
  return D;
}

BodyWrench BodyKinematics::wrench(ConstVectorRef q, ConstVectorRef f, const Vector& X) const {
  if (q.size() != size() || f.size() != size())
    throw std::invalid_argument("a body's wrench needs " + std::to_string(size()) + " coordinates and forces, got " +
                                std::to_string(q.size()) + " and " + std::to_string(f.size()));
  const Index dim = dimension();
  const auto embed = [dim](ConstVectorRef v) {
    Eigen::Vector3d e = Eigen::Vector3d::Zero();
    e.head(dim) = v;
    return e;
  };
  BodyWrench w;
  w.force = embed(f.head(dim));
  if (!has_directors()) return w;
  const Eigen::Vector3d r = embed(point_map(X) * q - q.head(dim));
  for (Index i = 1; i <= dim; ++i) w.moment += embed(q.segment(dim * i, dim)).cross(embed(f.segment(dim * i, dim)));
  w.moment -= r.cross(w.force);
  return w;
}

}  // namespace noether
