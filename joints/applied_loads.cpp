#include <noether/joints/applied_loads.hpp>

#include <stdexcept>

#include <noether/engine/quote.hpp>
#include <noether/joints/force_point_pair.hpp>

namespace noether {
namespace {

/// [a]x with [a]x b = a x b   (3 x 3).
Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& a) {
  Eigen::Matrix3d A;
  A << 0.0, -a(2), a(1), a(2), 0.0, -a(0), -a(1), a(0), 0.0;
  return A;
}

/// Rotation by +90 degrees in the plane: R (x, y) = (-y, x).
Eigen::Matrix2d quarter_turn() {
  Eigen::Matrix2d R;
  R << 0.0, -1.0, 1.0, 0.0;
  return R;
}

}  // namespace

PointForce::PointForce(std::string name, const BodyRef& body, const Vector& X, TimeFunction force)
    : ExternalLoad(std::move(name), {body.block}),
      point_map_(point_map_of("point force " + quote(this->name()), body, X)),
      force_(std::move(force)) {
  if (!force_) throw std::invalid_argument("point force " + quote(this->name()) + ": give the force F(t)");
}

void PointForce::do_add_generalized_force(double t, ConstVectorRef, double s, VectorRef f) const {
  const Vector F = force_(t);
  if (F.size() != point_map_.rows())
    throw std::invalid_argument("point force " + quote(name()) + ": F(t) has " + std::to_string(F.size()) +
                                " entries, the body lives in dimension " + std::to_string(point_map_.rows()));
  f.noalias() += s * (point_map_.transpose() * F);
}

Matrix angular_velocity_map(const BodyKinematics& kinematics, ConstVectorRef q) {
  if (!kinematics.has_directors()) throw std::invalid_argument("angular velocity map: a point mass has no orientation");
  const Index dim = kinematics.dimension();
  Matrix Omega = Matrix::Zero(dim == 3 ? 3 : 1, kinematics.size());
  for (Index i = 1; i <= dim; ++i) {
    if (dim == 3)
      Omega.middleCols(3 * i, 3) = 0.5 * cross_matrix(q.segment<3>(3 * i));
    else
      Omega.middleCols(2 * i, 2) = 0.5 * (quarter_turn() * q.segment<2>(2 * i)).transpose();
  }
  return Omega;
}

BodyTorque::BodyTorque(std::string name, const BodyRef& body, TimeFunction torque)
    : ExternalLoad(std::move(name), {body.block}), kinematics_(body.kinematics), torque_(std::move(torque)) {
  if (!kinematics_.has_directors())
    throw std::invalid_argument("body torque " + quote(this->name()) + ": body " + quote(body.name) +
                                " is a point mass, which has no orientation; apply forces instead");
  if (!torque_) throw std::invalid_argument("body torque " + quote(this->name()) + ": give the torque M(t)");
}

Vector BodyTorque::torque_at(double t) const {
  const Vector M = torque_(t);
  const Index expected = kinematics_.dimension() == 3 ? 3 : 1;
  if (M.size() != expected)
    throw std::invalid_argument("body torque " + quote(name()) + ": M(t) has " + std::to_string(M.size()) +
                                " entries, expected " + std::to_string(expected) + " (3 in 3D, 1 planar)");
  return M;
}

void BodyTorque::do_add_generalized_force(double t, ConstVectorRef q, double s, VectorRef f) const {
  f.noalias() += s * (angular_velocity_map(kinematics_, q).transpose() * torque_at(t));
}

Matrix BodyTorque::director_block(const Vector& torque) const {
  if (kinematics_.dimension() == 3) return 0.5 * cross_matrix(torque.head<3>());
  return 0.5 * torque(0) * quarter_turn();
}

void BodyTorque::do_add_generalized_force_q_jacobian(double t, ConstVectorRef, double s, MatrixRef K) const {
  const Index dim = kinematics_.dimension();
  const Matrix block = s * director_block(torque_at(t));
  for (Index i = 1; i <= dim; ++i) K.block(dim * i, dim * i, dim, dim) += block;
}

}  // namespace noether
