/// Motors and controllers (docs/api.md): a planar link on a pivot, driven by a PD motor towards
/// r(t) = 0.5 sin(2 t) and braked by a saturated controller of our own, stepped by livens-em.
/// Prints the tracking error at the end; exits with 1 unless the discrete energy balance
/// E(n+1) - E(n) = W(n) held to 1e-12 J at every step.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <noether/noether.hpp>

using namespace noether;

int main() {
  Mechanism m;
  const BodyRef link = m.add_planar_body("link", {1.0, Eigen::Vector2d::Zero(), 1.0 / 12}, {0.5, 0, 0});
  m.add(make_revolute_planar_to_ground("pivot", Eigen::Vector2d(0, 0), link, Eigen::Vector2d(-0.5, 0)));
  const auto angle = std::make_shared<HingeCoordinate>(HingeAngle::planar_from_ground(link));
  // PD control of the angle towards r(t) = 0.5 sin(2 t): u = -kp (x - r) - kd (x_dot - r'), x - r in (-pi, pi].
  m.add(std::make_shared<JointActuator>(
      "motor", angle, pd_law(*angle, 200.0, 20.0, SineProfile{0.5, 2.0, 0.0, 0.0}, "motor")));
  // Or a controller of your own, u(t, x, x_dot), with its derivatives (they enter Newton's tangent),
  // or without them: finite_difference_law(u, "brake") takes them by central differences.
  const ActuatorLaw saturated = [](double, double x, double rate) {
    const double s = std::tanh(-10 * x - rate), ds = 1 - s * s;
    return ActuatorJet{2 * s, -20 * ds, -2 * ds};
  };
  m.add(std::make_shared<JointActuator>("brake", angle, saturated));

  State state = m.initial_state();
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(m.system(), {});
  stepper->initialize(state);
  double energy = stepper->conserved_energy(state), residual = 0.0;
  for (int n = 0; n < 300; ++n) {
    const double work = stepper->step(state, 0.01).work, next = stepper->conserved_energy(state);
    residual = std::max(residual, std::abs(next - energy - work));
    energy = next;
  }
  const double error = angle->value(state.q) - 0.5 * std::sin(2.0 * state.t);
  std::printf("t = %g  tracking error %.3e rad  max|E(n+1) - E(n) - W(n)| = %.3e J\n", state.t, error, residual);
  return residual <= 1e-12 ? 0 : 1;
}
