/// The first invariants of the multibody layer: a free rigid body (no forces) under the Livens
/// energy-momentum stepper conserves its energy, linear and angular momentum, and keeps its
/// directors orthonormal (the midpoint gradient of the quadratic orthonormality constraints is
/// exact and rotation invariant).
#include <algorithm>
#include <cmath>

#include <doctest/doctest.h>

#include <noether/bodies/body_state.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/measures.hpp>
#include "support/random_bodies.hpp"
#include <noether/steppers/livens_em.hpp>

using namespace noether;
using noether::testing::random_rigid_body;
using noether::testing::random_rotation;
using noether::testing::random_vector;

namespace {

/// Largest relative drift of each invariant over a run, and the largest constraint violation.
struct Drift {
  double energy = 0, linear_momentum = 0, angular_momentum = 0, constraint = 0;
  State final_state;
};

Drift run_free(const Mechanism& mechanism, double h, int steps) {
  const System& system = mechanism.system();
  LivensEnergyMomentum stepper(system, StepperOptions{});
  State state = mechanism.initial_state();
  stepper.initialize(state);
  const double T0 = kinetic_energy(system, state.q, state.v);
  const Momenta m0 = momenta(system, state.q, state.v);
  Drift drift;
  Vector g(system.num_multipliers());
  for (int n = 0; n < steps; ++n) {
    stepper.step(state, h);
    drift.energy = std::max(drift.energy, std::abs(kinetic_energy(system, state.q, state.v) - T0) / T0);
    const Momenta m = momenta(system, state.q, state.v);
    drift.linear_momentum = std::max(drift.linear_momentum, (m.linear - m0.linear).norm() / m0.linear.norm());
    drift.angular_momentum = std::max(drift.angular_momentum, (m.angular - m0.angular).norm() / m0.angular.norm());
    calc_constraint_values(system, state.q, g);
    drift.constraint = std::max(drift.constraint, max_abs(g));
  }
  drift.final_state = state;
  MESSAGE(steps, " steps of h = ", h, ": relative drifts energy ", drift.energy, ", linear momentum ",
          drift.linear_momentum, ", angular momentum ", drift.angular_momentum, "; max |g| ", drift.constraint);
  return drift;
}

/// The scheme conserves T, L and J exactly; what remains is round-off of the velocity update
/// v1 = 2 (q1 - q0)/h - v0, about 1e-15 per step, accumulating to ~3e-13 over these runs.
void check_invariants(const Drift& drift) {
  CHECK(drift.energy <= 1e-12);
  CHECK(drift.linear_momentum <= 1e-12);
  CHECK(drift.angular_momentum <= 1e-12);
  CHECK(drift.constraint <= 1e-10);
}

}  // namespace

TEST_CASE("free rigid body (non-principal J_c, offset origin): livens-em conserves T, L, J and orthonormality") {
  const RigidBodyProperties body = random_rigid_body(7, false, true);
  Mechanism mechanism;
  const BodyRef ref = mechanism.add_rigid_body("tumbler", body, {random_vector(3, 8), random_rotation(9)},
                                               {random_vector(3, 10), 4.0 * random_vector(3, 11)});
  const Drift drift = run_free(mechanism, 0.01, 300);
  check_invariants(drift);
  const Matrix R = rotation(mechanism.system(), ref, drift.final_state.q);
  CHECK((R.transpose() * R - Matrix::Identity(3, 3)).cwiseAbs().maxCoeff() <= 2e-10);
}

TEST_CASE("free planar body (offset origin) with a point mass: livens-em conserves T, L, J_z and orthonormality") {
  Mechanism mechanism;
  mechanism.add_planar_body("link", {1.3, Eigen::Vector2d(0.4, -0.2), 0.35}, {0.2, -0.1, 0.6}, {0.5, -0.3, 6.0});
  mechanism.add_planar_point_mass("bob", 0.7, Eigen::Vector2d(1.0, 1.0), Eigen::Vector2d(-0.2, 0.9));
  check_invariants(run_free(mechanism, 0.01, 300));
}

TEST_CASE("a free body built about an offset origin moves like the same body built about its centre of mass") {
  // q -> (phi + c_i d_i, d_i) is linear and the Livens step is covariant under linear changes of
  // coordinates, so both formulations give the same motion up to the Newton tolerance.
  const RigidBodyProperties offset_body = random_rigid_body(21, false, true);
  RigidBodyProperties centred_body = offset_body;
  centred_body.center_of_mass.setZero();
  const Pose3d pose{random_vector(3, 22), random_rotation(23)};
  const Twist3d twist{random_vector(3, 24), 4.0 * random_vector(3, 25)};
  const Eigen::Vector3d Rc = pose.rotation * offset_body.center_of_mass;

  Mechanism offset, centred;
  const BodyRef a = offset.add_rigid_body("a", offset_body, pose, twist);
  const BodyRef b = centred.add_rigid_body("b", centred_body, {pose.position + Rc, pose.rotation},
                                           {twist.velocity + twist.angular_velocity.cross(Rc), twist.angular_velocity});
  const State sa = run_free(offset, 0.02, 100).final_state;
  const State sb = run_free(centred, 0.02, 100).final_state;
  const double position_difference = (point_position(offset.system(), a, sa.q, offset_body.center_of_mass) -
                                      point_position(centred.system(), b, sb.q, Eigen::Vector3d::Zero()))
                                         .norm();
  const double rotation_difference =
      (rotation(offset.system(), a, sa.q) - rotation(centred.system(), b, sb.q)).cwiseAbs().maxCoeff();
  MESSAGE("after 100 steps: centre of mass differs by ", position_difference, ", rotation by ", rotation_difference);
  CHECK(position_difference <= 1e-10);
  CHECK(rotation_difference <= 1e-10);
}
