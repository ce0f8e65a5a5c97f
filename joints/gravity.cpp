#include <noether/joints/gravity.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/joints/force_point_pair.hpp>

namespace noether {

Gravity::Gravity(std::string name, const BodyRef& body, double mass, const Vector& centre_of_mass,
                 const Vector& gravity)
    : Potential(std::move(name), {body.block}) {
  if (!std::isfinite(mass) || mass < 0.0)
    throw std::invalid_argument("gravity '" + this->name() + "': mass " + format_number(mass) + " of body '" +
                                body.name + "' must be finite and non-negative");
  if (gravity.size() != body.kinematics.dimension() || !gravity.allFinite())
    throw std::invalid_argument("gravity '" + this->name() + "': the gravity vector needs " +
                                std::to_string(body.kinematics.dimension()) + " finite entries for body '" + body.name +
                                "', got " + std::to_string(gravity.size()));
  weight_ = mass * point_map_of("gravity '" + this->name() + "'", body, centre_of_mass).transpose() * gravity;
}

}  // namespace noether
