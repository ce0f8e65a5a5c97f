#include <noether/apps/model/body_probe.hpp>

namespace noether {

Probe body_point_probe(std::string name, const System& system, const BodyRef& body, const Vector& X) {
  const Index offset = system.block(body.block).offset, size = body.kinematics.size();
  Matrix point_map = body.kinematics.point_map(X);
  return {std::move(name), body.kinematics.dimension(),
          [offset, size, point_map = std::move(point_map)](const State& state) {
            return Vector(point_map * state.q.segment(offset, size));
          }};
}

}  // namespace noether
