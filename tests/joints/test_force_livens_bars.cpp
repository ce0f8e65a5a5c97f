/// Rotational spring, rotational damper and body torque inside the Livens energy-momentum stepper, on
/// free planar director bars (internal orthonormality constraints).
#include <doctest/doctest.h>

#include <cmath>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/applied_loads.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/rotational_spring_damper.hpp>
#include <noether/steppers/livens_em.hpp>
#include "support/tight_newton.hpp"

using namespace noether;

namespace {

/// g = (1/2 (d1.d1 - 1), 1/2 (d2.d2 - 1), d1.d2) of a planar director body q = (phi, d1, d2).
ConstraintFunction planar_director_constraints() {
  ConstraintFunction f;
  f.num_equations = 3;
  f.nonlinearity = Nonlinearity::quadratic;
  f.value = [](ConstVectorRef q) {
    const Eigen::Vector2d d1 = q.segment<2>(2), d2 = q.segment<2>(4);
    return Vector(Eigen::Vector3d(0.5 * (d1.squaredNorm() - 1), 0.5 * (d2.squaredNorm() - 1), d1.dot(d2)));
  };
  f.jacobian = [](ConstVectorRef q) {
    Matrix G = Matrix::Zero(3, 6);
    G.block<1, 2>(0, 2) = q.segment<2>(2).transpose();
    G.block<1, 2>(1, 4) = q.segment<2>(4).transpose();
    G.block<1, 2>(2, 2) = q.segment<2>(4).transpose();
    G.block<1, 2>(2, 4) = q.segment<2>(2).transpose();
    return G;
  };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) {
    Matrix K = Matrix::Zero(6, 6);
    K.block<2, 2>(2, 2) = lambda(0) * Matrix::Identity(2, 2);
    K.block<2, 2>(4, 4) = lambda(1) * Matrix::Identity(2, 2);
    K.block<2, 2>(2, 4) = lambda(2) * Matrix::Identity(2, 2);
    K.block<2, 2>(4, 2) = lambda(2) * Matrix::Identity(2, 2);
    return K;
  };
  return f;
}

struct TwoBars {
  std::unique_ptr<System> system = std::make_unique<System>();
  std::shared_ptr<const RotationalDamper> damper;
  State initial;
};

/// Bars of mass 1 and length 1 (J = 1/12, E1 = E2 = J/2), coupled by w = 1/2 k theta^2 + 1/4 c theta^4
/// (k = 10, c = 5) about a rest angle of 0.2; a at angle 0.3 spinning at 1 rad/s, b at -0.8 spinning at -2 rad/s.
TwoBars make_two_bars(double damping) {
  TwoBars t;
  System& system = *t.system;
  Vector mass(6);
  mass << 1.0, 1.0, 1.0 / 24, 1.0 / 24, 1.0 / 24, 1.0 / 24;
  std::vector<BodyRef> bars;
  for (const char* name : {"a", "b"}) {
    const BodyRef bar{system.add_block(name, 6), BodyKinematics(BodyKind::planar_director), name};
    system.add(std::make_shared<ConstantInertia>(std::string("inertia ") + name, std::vector{bar.block},
                                                 Matrix(mass.asDiagonal())));
    system.add(std::make_shared<FunctionConstraint>(std::string("directors ") + name, std::vector{bar.block}, 6,
                                                    planar_director_constraints()));
    bars.push_back(bar);
  }
  const HingeAngle hinge = HingeAngle::planar(bars[0], bars[1]).shifted(0.2);
  const ScalarFunction law = [](double theta) {
    return ScalarJet{5.0 * theta * theta + 1.25 * std::pow(theta, 4), 10.0 * theta + 5.0 * std::pow(theta, 3),
                     10.0 + 15.0 * theta * theta};
  };
  system.add(std::make_shared<RotationalSpring>("torsion spring", hinge, law));
  if (damping > 0) {
    t.damper = std::make_shared<RotationalDamper>("torsion damper", hinge, damping);
    system.add(t.damper);
  }
  t.initial.q.resize(12);
  t.initial.v.resize(12);
  const auto bar_state = [](double x, double y, double alpha, double omega, double vx, double vy, Vector& q, Vector& v,
                            Index at) {
    const double c = std::cos(alpha), s = std::sin(alpha);
    q.segment<6>(at) << x, y, c, s, -s, c;
    v.segment<6>(at) << vx, vy, -omega * s, omega * c, -omega * c, -omega * s;
  };
  bar_state(0.0, 0.0, 0.3, 1.0, 0.1, 0.0, t.initial.q, t.initial.v, 0);
  bar_state(1.5, 0.2, -0.8, -2.0, 0.0, 0.3, t.initial.q, t.initial.v, 6);
  return t;
}

/// J = sum over the 2-vectors (phi, d1, d2) of all bars of q_k x p_k.
double angular_momentum(const State& s) {
  double J = 0;
  for (Index k = 0; k < s.q.size(); k += 2) J += s.q(k) * s.p(k + 1) - s.q(k + 1) * s.p(k);
  return J;
}

}  // namespace

TEST_CASE("livens-em with a rotational spring between free planar bars: energy and angular momentum conserved") {
  TwoBars t = make_two_bars(0.0);
  LivensEnergyMomentum stepper(*t.system, testing::tight_newton());
  State state = t.initial;
  stepper.initialize(state);
  const double E0 = stepper.conserved_energy(state), J0 = angular_momentum(state);
  const HingeAngle hinge = HingeAngle::planar({BlockId{0}, BodyKinematics(BodyKind::planar_director), "a"},
                                              {BlockId{1}, BodyKinematics(BodyKind::planar_director), "b"});
  double max_step_dE = 0, max_step_dJ = 0, min_angle = 10, max_angle = -10;
  for (int n = 0; n < 400; ++n) {
    const double E_before = stepper.conserved_energy(state), J_before = angular_momentum(state);
    stepper.step(state, 0.005);
    max_step_dE = std::max(max_step_dE, std::abs(stepper.conserved_energy(state) - E_before));
    max_step_dJ = std::max(max_step_dJ, std::abs(angular_momentum(state) - J_before));
    min_angle = std::min(min_angle, hinge.angle(state.q));
    max_angle = std::max(max_angle, hinge.angle(state.q));
  }
  MESSAGE("400 steps h = 0.005, relative angle in [", min_angle, ", ", max_angle,
          "]: largest increment per step: energy ", max_step_dE, " (E0 ", E0, "), angular momentum ", max_step_dJ,
          " (J0 ", J0, ")");
  CHECK(max_angle - min_angle > 1.0);
  CHECK(max_step_dE <= 1e-12 * E0);
  CHECK(max_step_dJ <= 1e-12 * std::abs(J0));
}

TEST_CASE("livens-em with a rotational damper: each step loses exactly h v_mid.C(q_mid) v_mid") {
  TwoBars t = make_two_bars(0.05);
  LivensEnergyMomentum stepper(*t.system, testing::tight_newton());
  State state = t.initial;
  stepper.initialize(state);
  const double E_initial = stepper.conserved_energy(state), h = 0.005;
  double max_balance_defect = 0, max_step_dJ = 0;
  for (int n = 0; n < 400; ++n) {
    const State before = state;
    stepper.step(state, h);
    const Vector q_mid = 0.5 * (before.q + state.q), v_mid = (state.q - before.q) / h;
    Matrix C = Matrix::Zero(12, 12);
    t.damper->add_damping_matrix(q_mid, 1.0, C);
    const double loss = stepper.conserved_energy(before) - stepper.conserved_energy(state);
    max_balance_defect = std::max(max_balance_defect, std::abs(loss - h * v_mid.dot(C * v_mid)));
    max_step_dJ = std::max(max_step_dJ, std::abs(angular_momentum(state) - angular_momentum(before)));
  }
  const double E_final = stepper.conserved_energy(state);
  MESSAGE("energy ", E_initial, " -> ", E_final, ", max |loss - h v_mid.C v_mid| per step ", max_balance_defect,
          ", largest angular momentum increment per step ", max_step_dJ);
  CHECK(E_final < 0.95 * E_initial);
  CHECK(max_balance_defect <= 1e-12 * E_initial);
  CHECK(max_step_dJ <= 1e-12 * std::abs(angular_momentum(state)));  // the damper is internal: J stays
}

TEST_CASE("livens-em with a body torque: energy gains the load's work, angular momentum grows by M t") {
  System system;
  const BodyRef bar{system.add_block("bar", 6), BodyKinematics(BodyKind::planar_director), "bar"};
  Vector mass(6);
  mass << 1.0, 1.0, 1.0 / 24, 1.0 / 24, 1.0 / 24, 1.0 / 24;  // J = E1 + E2 = 1/12
  system.add(std::make_shared<ConstantInertia>("inertia", std::vector{bar.block}, Matrix(mass.asDiagonal())));
  system.add(
      std::make_shared<FunctionConstraint>("directors", std::vector{bar.block}, 6, planar_director_constraints()));
  const double torque = 0.5;
  auto load = std::make_shared<BodyTorque>("motor", bar, [torque](double) { return Vector::Constant(1, torque); });
  system.add(load);
  LivensEnergyMomentum stepper(system, testing::tight_newton());
  State state;
  state.q.resize(6);
  state.q << 0.2, -0.1, 1.0, 0.0, 0.0, 1.0;
  state.v = Vector::Zero(6);
  stepper.initialize(state);
  const double h = 0.01;
  double max_balance_defect = 0;
  for (int n = 0; n < 100; ++n) {
    const State before = state;
    stepper.step(state, h);
    Vector f = Vector::Zero(6);
    load->add_generalized_force(before.t + 0.5 * h, 0.5 * (before.q + state.q), 1.0, f);
    const double gain = stepper.conserved_energy(state) - stepper.conserved_energy(before);
    max_balance_defect = std::max(max_balance_defect, std::abs(gain - f.dot(state.q - before.q)));
  }
  const double J = angular_momentum(state), omega = (angular_velocity_map(bar.kinematics, state.q) * state.v)(0);
  MESSAGE("t = 1: angular momentum ", J, " (M t = ", torque, "), omega ", omega, " (M t / J = ", torque * 12,
          "), max |energy gain - f.(q1 - q0)| per step ", max_balance_defect);
  CHECK(max_balance_defect <= 1e-12);
  // The midpoint torque's moment is M |d_mid|^2 = M cos^2(h omega / 2): second order, 1 - cos^2 <= 1e-3 here.
  CHECK(J == doctest::Approx(torque).epsilon(1e-3));
  CHECK(omega == doctest::Approx(torque * 12).epsilon(1e-3));
}
