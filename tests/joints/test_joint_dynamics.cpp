/// The joints inside a System, integrated by the Livens energy-momentum stepper: a 3D double
/// pendulum of two director bodies, the first hinged to the ground (revolute, linear), the second
/// hung from the first by a universal joint (bilinear). The exact discrete gradients of the joints
/// make the scheme conserve the energy to the Newton tolerance.
#include <cmath>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/joint_library.hpp>
#include <noether/steppers/livens_em.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

/// The six orthonormality constraints of a 3D director body, 1/2 (d_i.d_i - 1) and d_i.d_j (i < j)
/// (the bodies' own element is another helper's work; this is the test's inline version).
ConstraintFunction orthonormality() {
  ConstraintFunction f;
  f.num_equations = 6;
  f.nonlinearity = Nonlinearity::quadratic;
  f.value = [](ConstVectorRef q) {
    Vector g(6);
    Index r = 0;
    for (Index i = 0; i < 3; ++i)
      for (Index j = i; j < 3; ++j, ++r) {
        const double product = q.segment(3 + 3 * i, 3).dot(q.segment(3 + 3 * j, 3));
        g(r) = i == j ? 0.5 * (product - 1.0) : product;
      }
    return g;
  };
  f.jacobian = [](ConstVectorRef q) { return orthonormality_jacobian(BodyKinematics(BodyKind::director3d), q, 0, 12); };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) {
    Matrix H = Matrix::Zero(12, 12);
    Index r = 0;
    for (Index i = 0; i < 3; ++i)
      for (Index j = i; j < 3; ++j, ++r) {
        H.block(3 + 3 * i, 3 + 3 * j, 3, 3) += lambda(r) * Matrix::Identity(3, 3);
        if (i != j) H.block(3 + 3 * j, 3 + 3 * i, 3, 3) += lambda(r) * Matrix::Identity(3, 3);
      }
    return H;
  };
  return f;
}

/// V = m g phi_3 (gravity along -e3).
PotentialFunction gravity(double m, double g) {
  PotentialFunction f;
  f.nonlinearity = Nonlinearity::linear;
  f.energy = [=](ConstVectorRef q) { return m * g * q(2); };
  f.gradient = [=](ConstVectorRef) { return Vector(m * g * Vector::Unit(12, 2)); };
  f.hessian = [](ConstVectorRef) { return Matrix(Matrix::Zero(12, 12)); };
  return f;
}

/// A director body of mass 1 with Euler-tensor entries E = (0.1, 0.05, 0.03), its orthonormality
/// constraints and gravity.
BodyRef add_body(System& system, const std::string& name) {
  const BlockId block = system.add_block(name, 12);
  Vector diagonal(12);
  diagonal << Vector::Ones(3), Vector::Constant(3, 0.1), Vector::Constant(3, 0.05), Vector::Constant(3, 0.03);
  system.add(std::make_shared<ConstantInertia>(name + "-inertia", std::vector{block}, Matrix(diagonal.asDiagonal())));
  system.add(std::make_shared<FunctionConstraint>(name + "-orthonormality", std::vector{block}, 12, orthonormality()));
  system.add(std::make_shared<FunctionPotential>(name + "-gravity", std::vector{block}, 12, gravity(1.0, 9.81)));
  return {block, BodyKinematics(BodyKind::director3d), name};
}

}  // namespace

TEST_CASE("joints in a system: a 3D double pendulum (revolute to ground, universal) conserves energy") {
  System system;
  const BodyRef arm = add_body(system, "arm"), link = add_body(system, "link");
  const Vector e1 = vec({1, 0, 0}), e2 = vec({0, 1, 0}), e3 = vec({0, 0, 1});
  system.add(make_revolute_to_ground("hinge", Vector::Zero(3), e2, arm, -0.5 * e1, e2));
  system.add(make_universal("cardan", arm, 0.5 * e1, e2, link, -0.5 * e1, e3));

  // Both bars along e1 at rest, the link spinning about its vertical pin at 2 rad/s.
  const Pose arm_pose{0.5 * e1, Matrix::Identity(3, 3)}, link_pose{1.5 * e1, Matrix::Identity(3, 3)};
  const Vector omega = 2.0 * e3;
  Vector link_velocity(12);
  link_velocity << cross(omega, 0.5 * e1), cross(omega, e1), cross(omega, e2), cross(omega, e3);
  State state;
  state.q = stack(arm_pose.q(arm.kinematics), link_pose.q(link.kinematics));
  state.v = stack(Vector::Zero(12), link_velocity);

  StepperOptions options;
  options.newton.residual_tolerance = 1e-11;
  LivensEnergyMomentum stepper(system, options);
  stepper.initialize(state);
  const double energy_0 = stepper.conserved_energy(state);
  double max_energy_change = 0, max_violation = 0, max_height_change = 0;
  Vector g(system.num_multipliers());
  for (int n = 0; n < 300; ++n) {
    stepper.step(state, 0.01);
    max_energy_change = std::max(max_energy_change, std::abs(stepper.conserved_energy(state) - energy_0));
    calc_constraint_values(system, state.q, g);
    max_violation = std::max(max_violation, max_abs(g));
    max_height_change = std::max(max_height_change, std::abs(state.q(14) - state.q(2)));
  }
  MESSAGE("3 s of a 3D double pendulum: energy ", energy_0, ", max energy change ", max_energy_change,
          ", max |g| ", max_violation, ", largest height difference of the two centres ", max_height_change);
  CHECK(max_energy_change <= 1e-11 * std::abs(energy_0));  // to the Newton tolerance 1e-11
  CHECK(max_violation <= 1e-10);
  CHECK(max_height_change >= 0.1);  // the pendulum did swing
}
