#include <noether/bodies/body_state.hpp>

#include <span>
#include <stdexcept>

namespace noether {
namespace {

/// The DirectorInertia of a placed inertia element, or an error naming it.
const DirectorInertia& as_director_inertia(const Placed<Inertia>& placed) {
  const auto* inertia = dynamic_cast<const DirectorInertia*>(placed.element.get());
  if (inertia == nullptr)
    throw std::invalid_argument("inertia '" + placed.element->name() +
                                "' is not the inertia of a body (DirectorInertia); its momentum is not defined");
  return *inertia;
}

/// Sums momentum_of(inertia, dofs) over the system's inertia elements, in their order.
template <class MomentumOf>
Eigen::Vector3d sum_over_inertias(const System& system, MomentumOf momentum_of) {
  Eigen::Vector3d total = Eigen::Vector3d::Zero();
  for (const Placed<Inertia>& placed : system.inertias())
    total += momentum_of(as_director_inertia(placed), std::span<const Index>(placed.dofs));
  return total;
}

}  // namespace

Vector body_coordinates(const System& system, const BodyRef& body, ConstVectorRef x) {
  const CoordinateBlock& block = system.block(body.block);
  if (block.size() != body.kinematics.size())
    throw std::invalid_argument("body '" + body.name + "': its block '" + block.name + "' has " +
                                std::to_string(block.size()) + " coordinates, the body layout " +
                                std::to_string(body.kinematics.size()) + "; is the BodyRef from another system?");
  return x.segment(block.offset, block.size());
}

Vector point_position(const System& system, const BodyRef& body, ConstVectorRef q, const Vector& X) {
  return body.kinematics.point_map(X) * body_coordinates(system, body, q);
}

Vector point_velocity(const System& system, const BodyRef& body, ConstVectorRef v, const Vector& X) {
  return body.kinematics.point_map(X) * body_coordinates(system, body, v);
}

Matrix rotation(const System& system, const BodyRef& body, ConstVectorRef q) {
  if (!body.kinematics.has_directors())
    throw std::invalid_argument("body '" + body.name + "' is a point mass; it has no orientation");
  const Index dim = body.kinematics.dimension();
  const Vector q_body = body_coordinates(system, body, q);
  return q_body.tail(dim * dim).reshaped(dim, dim);
}

const DirectorInertia& body_inertia(const System& system, const BodyRef& body) {
  for (const Placed<Inertia>& placed : system.inertias()) {
    const auto blocks = placed.element->blocks();
    const auto* inertia = dynamic_cast<const DirectorInertia*>(placed.element.get());
    if (inertia != nullptr && blocks.size() == 1 && blocks[0] == body.block) return *inertia;
  }
  throw std::invalid_argument("body '" + body.name + "' has no DirectorInertia acting on its block alone");
}

Eigen::Vector3d linear_momentum(const System& system, const BodyRef& body, ConstVectorRef v) {
  return body_inertia(system, body).linear_momentum(body_coordinates(system, body, v));
}

Eigen::Vector3d angular_momentum(const System& system, const BodyRef& body, ConstVectorRef q, ConstVectorRef v) {
  return body_inertia(system, body)
      .angular_momentum(body_coordinates(system, body, q), body_coordinates(system, body, v));
}

Eigen::Vector3d total_linear_momentum(const System& system, ConstVectorRef v) {
  Vector v_local;
  return sum_over_inertias(system, [&](const DirectorInertia& inertia, std::span<const Index> dofs) {
    gather(v, dofs, v_local);
    return inertia.linear_momentum(v_local);
  });
}

Eigen::Vector3d total_angular_momentum(const System& system, ConstVectorRef q, ConstVectorRef v) {
  Vector q_local, v_local;
  return sum_over_inertias(system, [&](const DirectorInertia& inertia, std::span<const Index> dofs) {
    gather(q, dofs, q_local);
    gather(v, dofs, v_local);
    return inertia.angular_momentum(q_local, v_local);
  });
}

}  // namespace noether
