/// A user's program against the installed Noether package: a 3D pendulum (a bar hinged to the
/// ground by a revolute joint) with a second bar hung from it by a spherical joint, stepped by the
/// Livens energy-momentum stepper. Exits with 1 unless the energy is conserved and the joints hold.
#include <cmath>
#include <cstdio>
#include <memory>

#include <noether/noether.hpp>

using namespace noether;

int main() {
  const Vector e1 = Vector::Unit(3, 0), e2 = Vector::Unit(3, 1);
  const RigidBodyProperties bar{1.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(0.001, 1.0 / 12, 1.0 / 12).asDiagonal()};

  Mechanism mechanism;
  const BodyRef upper = mechanism.add_rigid_body("upper", bar, {Eigen::Vector3d(0.5, 0, 0)});
  const BodyRef lower = mechanism.add_rigid_body("lower", bar, {Eigen::Vector3d(1.5, 0, 0)},
                                                 {Eigen::Vector3d(0, 0.5, 0), Eigen::Vector3d(0, 0, 1)});
  mechanism.add(make_revolute_to_ground("hinge", Vector::Zero(3), e2, upper, -0.5 * e1, e2));
  mechanism.add(make_spherical("ball", upper, 0.5 * e1, lower, -0.5 * e1));
  for (const BodyRef& body : mechanism.bodies())
    mechanism.add(std::make_shared<Gravity>(body.name + ".gravity", body, 1.0, Vector::Zero(3),
                                            Vector(Eigen::Vector3d(0, 0, -9.81))));

  LivensEnergyMomentum stepper(mechanism.system(), StepperOptions{});
  State state = mechanism.initial_state();
  stepper.initialize(state);
  const double energy0 = stepper.conserved_energy(state);
  for (int n = 0; n < 200; ++n) stepper.step(state, 0.01);
  Vector g(mechanism.system().num_multipliers());
  calc_constraint_values(mechanism.system(), state.q, g);
  const double drift = std::abs(stepper.conserved_energy(state) - energy0);
  std::printf("t = %g: lower bar centre at (%.6f, %.6f, %.6f), energy drift %.3e, max|g| %.3e\n", state.t, state.q(12),
              state.q(13), state.q(14), drift, max_abs(g));
  return drift <= 1e-10 * std::abs(energy0) + 1e-12 && max_abs(g) <= 1e-10 ? 0 : 1;
}
