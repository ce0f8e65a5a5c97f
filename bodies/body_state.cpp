#include <noether/bodies/body_state.hpp>

#include <optional>
#include <stdexcept>

#include <noether/engine/quote.hpp>

namespace noether {

Vector body_coordinates(const System& system, const BodyRef& body, ConstVectorRef x) {
  const CoordinateBlock& block = system.block(body.block);
  if (block.size() != body.kinematics.size())
    throw std::invalid_argument("body " + quote(body.name) + ": its block " + quote(block.name) + " has " +
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
    throw std::invalid_argument("body " + quote(body.name) + " is a point mass; it has no orientation");
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
  throw std::invalid_argument("body " + quote(body.name) + " has no DirectorInertia acting on its block alone");
}

Momenta body_momenta(const System& system, const BodyRef& body, ConstVectorRef q, ConstVectorRef v,
                     const Eigen::Vector3d& about) {
  const Vector q_body = body_coordinates(system, body, q), v_body = body_coordinates(system, body, v);
  Momenta total;
  bool found = false;
  for (const Placed<Inertia>& placed : system.inertias()) {
    const auto blocks = placed.element->blocks();
    if (blocks.size() != 1 || blocks[0] != body.block) continue;
    const std::optional<Momenta> m = placed.element->momenta(q_body, v_body, about);
    if (!m)
      throw std::invalid_argument("body " + quote(body.name) + ": its inertia " + quote(placed.element->name()) +
                                  " has no momentum map (it does not say how rigid motions move its coordinates)");
    total += *m;
    found = true;
  }
  if (!found) throw std::invalid_argument("body " + quote(body.name) + " has no inertia acting on its block alone");
  return total;
}

}  // namespace noether
