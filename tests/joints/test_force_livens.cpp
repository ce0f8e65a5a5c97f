/// Force elements inside the Livens energy-momentum stepper: two point masses joined by a nonlinear
/// spring, tumbling in 3D, with and without a dashpot.
#include <doctest/doctest.h>

#include <Eigen/Geometry>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/steppers/livens_em.hpp>
#include "support/tight_newton.hpp"

using namespace noether;

namespace {

struct Dumbbell {
  std::unique_ptr<System> system = std::make_unique<System>();
  std::shared_ptr<const AxialPointDamper> damper;
  State initial;
};

/// How the spring's discrete gradient is formed: the element's invariant form, or the engine's default
/// Gonzalez gradient in the Cartesian coordinates (the same V wrapped as a general FunctionPotential).
enum class SpringForm { invariant, cartesian_gonzalez };

std::shared_ptr<const Potential> cartesian_gonzalez(std::shared_ptr<const PointSpring> spring) {
  PotentialFunction f;
  f.energy = [spring](ConstVectorRef q) { return spring->energy(q); };
  f.gradient = [spring](ConstVectorRef q) {
    Vector g = Vector::Zero(q.size());
    spring->add_gradient(q, 1.0, g);
    return g;
  };
  f.hessian = [spring](ConstVectorRef q) {
    Matrix K = Matrix::Zero(q.size(), q.size());
    spring->add_hessian(q, 1.0, K);
    return K;
  };
  f.nonlinearity = Nonlinearity::general;
  return std::make_shared<FunctionPotential>(
      "spring (Cartesian Gonzalez)", std::vector<BlockId>(spring->blocks().begin(), spring->blocks().end()), 6, f);
}

/// m1 = 1 at the origin, m2 = 2 at (1.1, 0.2, -0.1), Green-strain spring EA = 50, L0 = 1; velocities
/// chosen so the pair translates, spins and stretches (no symmetry of the motion).
Dumbbell make_dumbbell(bool with_damper, SpringForm form = SpringForm::invariant) {
  Dumbbell d;
  System& system = *d.system;
  const BodyRef a{system.add_block("a", {"x", "y", "z"}), BodyKinematics(BodyKind::point_mass3d), "a"};
  const BodyRef b{system.add_block("b", {"x", "y", "z"}), BodyKinematics(BodyKind::point_mass3d), "b"};
  system.add(std::make_shared<ConstantInertia>("inertia a", std::vector{a.block}, Matrix(Matrix::Identity(3, 3))));
  system.add(
      std::make_shared<ConstantInertia>("inertia b", std::vector{b.block}, Matrix(2.0 * Matrix::Identity(3, 3))));
  const ForcePointPair ends(a, Vector::Zero(3), b, Vector::Zero(3));
  auto spring = std::make_shared<PointSpring>("spring", ends, green_strain_spring_law(50.0, 1.0));
  if (form == SpringForm::invariant)
    system.add(spring);
  else
    system.add(cartesian_gonzalez(spring));
  if (with_damper) {
    d.damper = std::make_shared<AxialPointDamper>("dashpot", ends, 0.4);
    system.add(d.damper);
  }
  d.initial.q.resize(6);
  d.initial.v.resize(6);
  d.initial.q << 0.0, 0.0, 0.0, 1.1, 0.2, -0.1;
  d.initial.v << 0.3, -1.0, 0.5, -0.2, 1.5, 0.8;
  return d;
}

Eigen::Vector3d linear_momentum(const State& s) { return s.p.head<3>() + s.p.tail<3>(); }

Eigen::Vector3d angular_momentum(const State& s) {
  return Eigen::Vector3d(s.q.head<3>()).cross(Eigen::Vector3d(s.p.head<3>())) +
         Eigen::Vector3d(s.q.tail<3>()).cross(Eigen::Vector3d(s.p.tail<3>()));
}

}  // namespace

TEST_CASE("livens-em with the invariant spring: energy, linear and angular momentum conserved to round-off") {
  Dumbbell d = make_dumbbell(false);
  LivensEnergyMomentum stepper(*d.system, testing::tight_newton());
  State state = d.initial;
  stepper.initialize(state);
  const double E0 = stepper.conserved_energy(state);
  const Eigen::Vector3d L0 = linear_momentum(state), J0 = angular_momentum(state);
  double max_step_dE = 0, max_step_dL = 0, max_step_dJ = 0, min_length = 1e9, max_length = 0;
  for (int n = 0; n < 500; ++n) {
    const double E_before = stepper.conserved_energy(state);
    const Eigen::Vector3d L_before = linear_momentum(state), J_before = angular_momentum(state);
    stepper.step(state, 0.01);
    max_step_dE = std::max(max_step_dE, std::abs(stepper.conserved_energy(state) - E_before));
    max_step_dL = std::max(max_step_dL, (linear_momentum(state) - L_before).norm());
    max_step_dJ = std::max(max_step_dJ, (angular_momentum(state) - J_before).norm());
    const double length = (state.q.tail<3>() - state.q.head<3>()).norm();
    min_length = std::min(min_length, length);
    max_length = std::max(max_length, length);
  }
  const double drift_E = std::abs(stepper.conserved_energy(state) - E0);
  const double drift_L = (linear_momentum(state) - L0).norm(), drift_J = (angular_momentum(state) - J0).norm();
  MESSAGE("500 steps h = 0.01, spring length in [", min_length, ", ", max_length,
          "]: largest increment per step: energy ", max_step_dE, " (E0 ", E0, "), linear momentum ", max_step_dL,
          " (|L0| ", L0.norm(), "), angular momentum ", max_step_dJ, " (|J0| ", J0.norm(),
          "); drift after 500 steps: ", drift_E, ", ", drift_L, ", ", drift_J);
  CHECK(max_length - min_length > 0.05);  // the spring really works nonlinearly
  CHECK(max_step_dE <= 1e-12 * E0);
  CHECK(max_step_dL <= 1e-12 * L0.norm());
  CHECK(max_step_dJ <= 1e-12 * J0.norm());
  // The step's residual has sensitivity 2M/h = 400 to q1, so each step's momenta carry ~1e-14 of
  // round-off (eps |q| 2M/h), which accumulates over 500 steps: the drift is 500 times the increments.
  CHECK(drift_E <= 500 * 1e-13 * E0);
  CHECK(drift_L <= 500 * 1e-13 * L0.norm());
  CHECK(drift_J <= 500 * 1e-13 * J0.norm());
}

TEST_CASE("livens-em with spring and dashpot: each step loses exactly the dashpot's work h v_mid.C(q_mid) v_mid") {
  Dumbbell d = make_dumbbell(true);
  LivensEnergyMomentum stepper(*d.system, testing::tight_newton());
  State state = d.initial;
  stepper.initialize(state);
  const double E_initial = stepper.conserved_energy(state);
  const double h = 0.01;
  double max_balance_defect = 0, max_step_dJ = 0;
  for (int n = 0; n < 500; ++n) {
    const State before = state;
    stepper.step(state, h);
    const Vector q_mid = 0.5 * (before.q + state.q), v_mid = (state.q - before.q) / h;
    Matrix C = Matrix::Zero(6, 6);
    d.damper->add_damping_matrix(q_mid, 1.0, C);
    const double dissipated = h * v_mid.dot(C * v_mid);
    const double loss = stepper.conserved_energy(before) - stepper.conserved_energy(state);
    max_balance_defect = std::max(max_balance_defect, std::abs(loss - dissipated));
    max_step_dJ = std::max(max_step_dJ, (angular_momentum(state) - angular_momentum(before)).norm());
  }
  const double E_final = stepper.conserved_energy(state);
  MESSAGE("energy ", E_initial, " -> ", E_final, ", max |loss - h v_mid.C v_mid| per step ", max_balance_defect,
          ", largest angular momentum increment per step ", max_step_dJ);
  CHECK(E_final < 0.99 * E_initial);
  CHECK(max_balance_defect <= 1e-12 * E_initial);
  CHECK(max_step_dJ <= 1e-12 * angular_momentum(state).norm());  // the dashpot is internal: J stays
}

TEST_CASE("livens-em with the spring through Cartesian Gonzalez: energy conserved, angular momentum not") {
  Dumbbell d = make_dumbbell(false, SpringForm::cartesian_gonzalez);
  LivensEnergyMomentum stepper(*d.system, testing::tight_newton());
  State state = d.initial;
  stepper.initialize(state);
  const double E0 = stepper.conserved_energy(state);
  const Eigen::Vector3d J0 = angular_momentum(state);
  double max_step_dE = 0;
  for (int n = 0; n < 500; ++n) {
    const double E_before = stepper.conserved_energy(state);
    stepper.step(state, 0.01);
    max_step_dE = std::max(max_step_dE, std::abs(stepper.conserved_energy(state) - E_before));
  }
  const double drift_J = (angular_momentum(state) - J0).norm();
  MESSAGE("Cartesian Gonzalez, 500 steps: largest energy increment per step ", max_step_dE, ", angular momentum drift ",
          drift_J, " (|J0| ", J0.norm(), ")");
  CHECK(max_step_dE <= 1e-12 * E0);
  CHECK(drift_J > 1e-6 * J0.norm());
}
