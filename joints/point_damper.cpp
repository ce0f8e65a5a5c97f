#include <noether/joints/point_damper.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

double checked_damping(const std::string& element, double damping) {
  if (!std::isfinite(damping) || damping < 0.0)
    throw std::invalid_argument("damper " + quote(element) + ": damping constant " + format_number(damping) +
                                " must be finite and non-negative");
  return damping;
}

}  // namespace

PointDamper::PointDamper(std::string name, const ForcePointPair& points, double damping)
    : Dissipation(std::move(name), points.blocks()) {
  damping_matrix_ = checked_damping(this->name(), damping) * (points.jacobian().transpose() * points.jacobian());
}

AxialPointDamper::AxialPointDamper(std::string name, ForcePointPair points, double damping)
    : Dissipation(std::move(name), points.blocks()), points_(std::move(points)) {
  damping_ = checked_damping(this->name(), damping);
}

std::string AxialPointDamper::singularity(ConstVectorRef q) const {
  if (points_.separation(q).squaredNorm() != 0.0) return {};
  return "the axial damper's two points coincide (length 0), where its axis, the direction between them, is "
         "undefined; move the points apart, or damp the full relative velocity (axial false)";
}

void AxialPointDamper::do_add_damping_matrix(ConstVectorRef q, double s, MatrixRef C) const {
  const Vector Jt_r = points_.jacobian().transpose() * points_.separation(q);
  C.noalias() += (s * damping_ / points_.separation(q).squaredNorm()) * (Jt_r * Jt_r.transpose());
}

void AxialPointDamper::do_add_damping_force_q_jacobian(ConstVectorRef q, ConstVectorRef v, double s,
                                                       MatrixRef K) const {
  const Matrix& J = points_.jacobian();
  const Vector r = points_.separation(q);
  const Vector u = J * v;
  const double rr = r.squaredNorm(), ru = r.dot(u);
  const Index dim = points_.dimension();
  const Matrix inner =
      (ru * Matrix::Identity(dim, dim) + r * u.transpose()) / rr - (2.0 * ru / (rr * rr)) * (r * r.transpose());
  K.noalias() += (s * damping_) * (J.transpose() * inner * J);
}

}  // namespace noether
