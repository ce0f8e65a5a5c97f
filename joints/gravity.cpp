#include <noether/joints/gravity.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>
#include <noether/joints/force_point_pair.hpp>

namespace noether {

Vector Gravity::checked_weight(const std::string& name, const BodyRef& body, double mass,
                              const Vector& centre_of_mass, const Vector& gravity) {
  if (!std::isfinite(mass) || mass < 0.0)
    throw std::invalid_argument("gravity " + quote(name) + ": mass " + format_number(mass) + " of body " + quote(body.name) +
                                " must be finite and non-negative");
  if (gravity.size() != body.kinematics.dimension() || !gravity.allFinite())
    throw std::invalid_argument("gravity " + quote(name) + ": the gravity vector needs " +
                                std::to_string(body.kinematics.dimension()) + " finite entries for body " + quote(body.name) +
                                ", got " + std::to_string(gravity.size()));
  return mass * point_map_of("gravity " + quote(name), body, centre_of_mass).transpose() * gravity;
}

Gravity::Gravity(std::string name, const BodyRef& body, double mass, const Vector& centre_of_mass,
                 const Vector& gravity)
    : Potential(name, {body.block}), weight_(checked_weight(name, body, mass, centre_of_mass, gravity)),
      form_("gravity " + quote(name), Vector::Zero(1), -weight_.transpose()) {}

}  // namespace noether
