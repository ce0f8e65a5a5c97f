#include <noether/joints/joint_actuator.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

void require_gain(double gain, const char* which, const std::string& owner) {
  if (!std::isfinite(gain) || gain < 0.0)
    throw std::invalid_argument(owner + ": the gain " + which + " = " + format_number(gain) +
                                " must be finite and non-negative");
}

}  // namespace

ActuatorLaw profile_law(TimeProfile profile, const std::string& owner) {
  check_time_profile(profile, owner + ": the profile u(t)");
  return [profile = std::move(profile)](double t, double, double) { return ActuatorJet{evaluate(profile, t), 0.0, 0.0}; };
}

ActuatorLaw pd_law(const JointCoordinate& along, double kp, double kd, TimeProfile reference,
                   const std::string& owner) {
  require_gain(kp, "kp", owner);
  require_gain(kd, "kd", owner);
  check_time_profile(reference, owner + ": the reference r(t)");
  return [kp, kd, period = along.period(), reference = std::move(reference)](double t, double x, double rate) {
    const double error = coordinate_difference(x, evaluate(reference, t), period);
    return ActuatorJet{-kp * error - kd * (rate - evaluate_rate(reference, t)), -kp, -kd};
  };
}

ActuatorLaw finite_difference_law(std::function<double(double, double, double)> u, const std::string& owner) {
  if (!u) throw std::invalid_argument(owner + ": give the actuator's function u(t, x, x_dot)");
  return [u = std::move(u)](double t, double x, double rate) {
    const double step = std::cbrt(std::numeric_limits<double>::epsilon());
    const double dx = step * std::max(1.0, std::abs(x)), dr = step * std::max(1.0, std::abs(rate));
    return ActuatorJet{u(t, x, rate), (u(t, x + dx, rate) - u(t, x - dx, rate)) / (2.0 * dx),
                       (u(t, x, rate + dr) - u(t, x, rate - dr)) / (2.0 * dr)};
  };
}

namespace {

/// The coordinate's blocks; refuses a null coordinate before the Element refuses no blocks.
std::vector<BlockId> blocks_of(const std::shared_ptr<const JointCoordinate>& coordinate, const std::string& name) {
  if (!coordinate) throw std::invalid_argument("actuator " + quote(name) + ": give the joint coordinate it acts along");
  return coordinate->blocks();
}

}  // namespace

JointActuator::JointActuator(std::string name, std::shared_ptr<const JointCoordinate> coordinate, ActuatorLaw law)
    : Actuator(name, blocks_of(coordinate, name)),
      coordinate_(std::move(coordinate)),
      law_(std::move(law)) {
  if (!law_) throw std::invalid_argument("actuator " + quote(this->name()) + ": give its law u(t, x, x_dot)");
}

JointActuator::StepLaw JointActuator::law_at(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1) const {
  const double dx = coordinate_->increment(q0, q1);
  return {law_(step.midpoint(), coordinate_->value(q0) + 0.5 * dx, dx / step.h), dx};
}

double JointActuator::step_value(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1) const {
  return law_at(step, q0, q1).u.value;
}

void JointActuator::do_add_step_force(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                                      VectorRef f) const {
  f.noalias() += (s * law_at(step, q0, q1).u.value) * coordinate_->discrete_gradient(q0, q1);
}

void JointActuator::do_add_step_force_jacobian(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                                               MatrixRef K) const {
  const ActuatorJet u = law_at(step, q0, q1).u;
  const double du_dx1 = 0.5 * u.d_position + u.d_rate / step.h;  // d(x_mid)/dx1 = 1/2, d(rate)/dx1 = 1/h
  K.noalias() += (s * du_dx1) * (coordinate_->discrete_gradient(q0, q1) * coordinate_->gradient(q1).transpose());
  coordinate_->add_discrete_gradient_jacobian(q0, q1, s * u.value, K);
}

}  // namespace noether
