#include <noether/joints/rotational_spring_damper.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/gonzalez.hpp>
#include <noether/engine/quote.hpp>

namespace noether {

ScalarFunction torsion_spring_law(double stiffness) {
  if (!std::isfinite(stiffness) || stiffness < 0.0)
    throw std::invalid_argument("torsion spring law: stiffness " + format_number(stiffness) +
                                " must be finite and non-negative");
  return [k = stiffness](double theta) { return ScalarJet{0.5 * k * theta * theta, k * theta, k}; };
}

RotationalSpring::RotationalSpring(std::string name, HingeAngle angle, ScalarFunction energy_of_angle)
    : Potential(std::move(name), angle.blocks()), angle_(std::move(angle)), law_(std::move(energy_of_angle)) {
  if (!law_) throw std::invalid_argument("rotational spring " + quote(this->name()) + ": give its energy w(theta)");
}

RotationalSpring::InvariantEnergy RotationalSpring::energy_of_invariants(const Eigen::Vector2d& pi) const {
  const AngleOfInvariants theta = angle_of_invariants(pi);
  const ScalarJet w = law_(theta.angle);
  InvariantEnergy out;
  out.value = w.value;
  out.gradient = w.first * theta.gradient;
  out.hessian = w.second * theta.gradient * theta.gradient.transpose() + w.first * theta.hessian;
  return out;
}

void RotationalSpring::do_add_gradient(ConstVectorRef q, double s, VectorRef g) const {
  g.noalias() += (s * law_(angle_.angle(q)).first) * angle_.angle_gradient(q);
}

void RotationalSpring::do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const {
  const ScalarJet w = law_(angle_.angle(q));
  const Vector a = angle_.angle_gradient(q);
  K.noalias() += (s * w.second) * (a * a.transpose());
  K.noalias() += (s * w.first) * angle_.angle_hessian(q);
}

RotationalSpring::InvariantDiscreteGradient RotationalSpring::invariant_discrete_gradient(
    const Eigen::Vector2d& pi_a, const Eigen::Vector2d& pi_b) const {
  const InvariantEnergy mid = energy_of_invariants(0.5 * (pi_a + pi_b));
  InvariantDiscreteGradient out{mid.gradient, 0.5 * mid.hessian};
  if ((pi_b - pi_a).norm() <= scalar_discrete_derivative_gap * (pi_a.norm() + pi_b.norm())) return out;
  const InvariantEnergy at_a = energy_of_invariants(pi_a), at_b = energy_of_invariants(pi_b);
  out.value.setZero();
  out.derivative_b.setZero();
  add_gonzalez_gradient(pi_a, pi_b, at_a.value, at_b.value, mid.gradient, 1.0, out.value);
  add_gonzalez_jacobian(pi_a, pi_b, at_a.value, at_b.value, at_b.gradient, mid.gradient, mid.hessian, 1.0,
                        out.derivative_b);
  return out;
}

void RotationalSpring::add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const {
  const InvariantDiscreteGradient W_bar = invariant_discrete_gradient(angle_.invariants(q_a), angle_.invariants(q_b));
  g.noalias() += s * (angle_.invariant_jacobian(0.5 * (q_a + q_b)).transpose() * W_bar.value);
}

void RotationalSpring::add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s,
                                                      MatrixRef K) const {
  const InvariantDiscreteGradient W_bar = invariant_discrete_gradient(angle_.invariants(q_a), angle_.invariants(q_b));
  const Matrix A_mid = angle_.invariant_jacobian(0.5 * (q_a + q_b));
  K.noalias() += s * (A_mid.transpose() * W_bar.derivative_b * angle_.invariant_jacobian(q_b));
  K.noalias() += (0.5 * s * W_bar.value(0)) * angle_.invariant_hessian(0);
  K.noalias() += (0.5 * s * W_bar.value(1)) * angle_.invariant_hessian(1);
}

RotationalDamper::RotationalDamper(std::string name, HingeAngle angle, double damping)
    : Dissipation(std::move(name), angle.blocks()), angle_(std::move(angle)), damping_(damping) {
  if (!std::isfinite(damping) || damping < 0.0)
    throw std::invalid_argument("rotational damper " + quote(this->name()) + ": damping constant " +
                                format_number(damping) + " must be finite and non-negative");
}

void RotationalDamper::do_add_damping_matrix(ConstVectorRef q, double s, MatrixRef C) const {
  const Vector a = angle_.angle_gradient(q);
  C.noalias() += (s * damping_) * (a * a.transpose());
}

void RotationalDamper::do_add_damping_force_q_jacobian(ConstVectorRef q, ConstVectorRef v, double s,
                                                       MatrixRef K) const {
  const Vector a = angle_.angle_gradient(q);
  const Matrix H = angle_.angle_hessian(q);
  K.noalias() += (s * damping_ * a.dot(v)) * H;
  K.noalias() += (s * damping_) * (a * (H * v).transpose());
}

}  // namespace noether
