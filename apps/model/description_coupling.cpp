#include <noether/apps/model/description_coupling.hpp>

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// The number of coordinates of a described body's block.
Index coordinates_of(const BodyDescription& body) {
  return std::visit(
      [](const auto& b) -> Index {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, RigidBodyDescription>) return 12;
        else if constexpr (std::is_same_v<T, PlanarBodyDescription>) return 6;
        else if constexpr (std::is_same_v<T, PointMassDescription>) return b.position.size();
        else if constexpr (std::is_same_v<T, SphericalPointMassDescription>) return 3;
        else return static_cast<Index>(b.coordinates.size());
      },
      body);
}

/// Adds the elements of the entries to a coupling, naming their bodies.
class Coupler {
 public:
  explicit Coupler(const ModelDescription& description) {
    for (const BodyDescription& body : description.bodies) {
      index_.emplace(name_of(body), static_cast<Index>(index_.size()));
      coupling_.add_block(coordinates_of(body));
    }
  }

  /// An element on the named bodies, in order; an empty name (the ground) touches none.
  void element(std::initializer_list<const std::string*> bodies) {
    blocks_.clear();
    for (const std::string* name : bodies)
      if (!name->empty()) blocks_.push_back(block(*name));
    coupling_.add_element(blocks_);
  }
  void element(const std::vector<std::string>& bodies) {
    blocks_.clear();
    for (const std::string& name : bodies) blocks_.push_back(block(name));
    coupling_.add_element(blocks_);
  }

  BlockCoupling take() { return std::move(coupling_); }

 private:
  Index block(const std::string& name) const {
    const auto found = index_.find(name);
    if (found == index_.end()) throw std::invalid_argument("no body named " + quote(name) + " in the model");
    return found->second;
  }

  std::unordered_map<std::string, Index> index_;
  BlockCoupling coupling_;
  std::vector<Index> blocks_;
};

void couple(Coupler& c, const ConstraintDescription& constraint) {
  std::visit([&](const auto& k) { c.element(k.bodies); }, constraint);
}

void couple(Coupler& c, const ForceDescription& force) {
  std::visit(
      [&](const auto& f) {
        using T = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<T, GravityDescription>) {
          return;  // one element per body, each on its body alone: no join
        } else if constexpr (std::is_same_v<T, SpringDescription> || std::is_same_v<T, DamperDescription>) {
          c.element({&f.points.body_a, &f.points.body_b});
        } else if constexpr (std::is_same_v<T, RotationalSpringDescription> ||
                             std::is_same_v<T, RotationalDamperDescription>) {
          c.element({&f.hinge.body_a, &f.hinge.body_b});
        } else if constexpr (std::is_same_v<T, DampingMatrixDescription>) {
          c.element(f.bodies);
        } else {
          c.element({&f.body});
        }
      },
      force);
}

void couple(Coupler& c, const ActuatorDescription& actuator) {
  std::visit([&](const auto& coordinate) { c.element({&coordinate.body_a, &coordinate.body_b}); },
             actuator.coordinate);
}

}  // namespace

BlockCoupling description_coupling(const ModelDescription& description) {
  Coupler c(description);
  for (const MassMatrixDescription& m : description.inertias) c.element(m.bodies);
  for (const JointDescription& j : description.joints) c.element({&j.a.body, &j.b.body});
  for (const ConstraintDescription& k : description.constraints) couple(c, k);
  for (const DriveDescription& d : description.drives) c.element({&d.a.body, &d.b.body});
  for (const ForceDescription& f : description.forces) couple(c, f);
  for (const ActuatorDescription& a : description.actuators) couple(c, a);
  return c.take();
}

}  // namespace noether
