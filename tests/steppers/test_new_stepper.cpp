/// A new stepper, written in this file and touching no other: the implicit midpoint rule as a scheme
/// (docs/architecture.md, "Adding a stepper": its name, traits, fields, kernels and state update,
/// and `template class SchemeStepper<...>;`, which checks it against the contract). The engine
/// assembles its step equations and SchemeStepper solves and refines them; the tests check what
/// its declarations promise: order 2, an energy it does not claim to conserve, the quadratic
/// invariants the midpoint rule keeps, a symmetric step, refusals for what it cannot treat, and a
/// tangent exact enough that Newton converges quadratically.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/bodies/spherical_point_mass.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/applied_loads.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/newton_convergence.hpp"

namespace noether::toy {

/// The implicit midpoint rule on q' = v, M v' = -DV(q) - C(q) v + f(t, q), for constant M and no
/// constraints: with q_mid = (q0 + q1)/2, v_mid = (v0 + v1)/2 = (q1 - q0)/h, t_mid = t0 + h/2,
///
///   q1 - q0 = h v_mid,   M (v1 - v0) = -h DV(q_mid) - h C(q_mid) v_mid + h f(t_mid, q_mid).
///
/// Unknown (d): dq = q1 - q0, so v1 = 2 dq/h - v0. One row per coordinate, the momentum balance
/// times 2 (momentum units, as livens-em's):
///
///   R = (2/h) M dq - 2 p0 + h DV(q_mid) + C(q_mid) dq - h f(t_mid, q_mid),
///   dR/d dq = (2/h) M + h/2 D^2V(q_mid) + C(q_mid) + 1/2 d(C(q) dq)/dq - h/2 df/dq   (at q_mid).
///
/// Properties: order 2, symmetric (a step by -h from the end returns to the start), symplectic;
/// it keeps every quadratic first integral, so the linear and angular momentum of a system whose
/// forces are central; it keeps the energy 1/2 v.M v + V(q) only for quadratic V (traits: not
/// conserved), its error is O(h^2) without drift. Refuses constraints (the midpoint rule of an
/// index-3 system is another scheme; livens-em treats them) and an inertia whose M depends on q or
/// is singular.
struct MidpointScheme {
  static constexpr std::string_view name = "toy-midpoint";
  static constexpr SchemeTraits traits{.order = 2};
  enum Field { dq };
  static constexpr std::array fields{FieldKind::coordinates};
  enum Slot { q0_slot, q1_slot, mid_slot, dq_slot, workspace_slots };

  /// q1 = q0 + dq at the current iterate (d).
  struct Data {
    Vector q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq;  ///< the field of x
    const Vector& q1;
  };

  MidpointScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    data.q1 = in.state.q + x;
    return {in, segment_view(x, 0, system_.num_coordinates()), data.q1};
  }
  /// R's term that does not depend on x: -2 p0.
  void add_step_rows(const StepInput& in, VectorRef rows) const { rows = -2.0 * in.state.p; }
  /// dq = h v0 (no warm start: guess.v1 is v0).
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const {
    return 0.5 * in.h * (in.state.v + guess.v1);
  }
  /// q1 = q0 + dq, v1 = 2 dq/h - v0, p1 = M v1.
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<MidpointScheme>&) const {
    State next{in.state.step + 1, in.state.t + in.h, in.state.q + x, 2.0 / in.h * x - in.state.v,
               Vector(x.size()), Vector(0)};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// E = 1/2 v.M v + V(q).
  double conserved_energy(const State& state) const {
    return kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  }
  std::string row_label(int, Index i) const {
    return "midpoint momentum balance of coordinate " + system_.coordinate_label(i);
  }

  TermShape shape(const Inertia&) const { return TermShape{dq}.block(dq, dq, Pattern::mass, true); }  // (2/h) M
  TermShape shape(const Potential&) const { return TermShape{dq}.block(dq, dq); }
  /// None: the constructor refuses constraints, so no constraint term reaches the kernels.
  TermShape shape(const Constraint&) const { return TermShape{}; }
  TermShape shape(const Dissipation&) const { return TermShape{dq}.block(dq, dq); }
  TermShape shape(const ExternalLoad&) const { return TermShape{dq}.block(dq, dq); }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  /// Never called: a constraint's shape has no fields.
  void evaluate(const ConstraintTerm&, const Iterate&, TermOutput&) const {}
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
  /// The work of the two force terms over the step, -dq.C(q_mid) dq/h and f(t_mid, q_mid).dq
  /// (StepReport::work), as the library's midpoint schemes report it (steppers/midpoint_forces.hpp).
  double work(const DissipationTerm& t, const Iterate& it) const {
    return midpoint_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot});
  }
  double work(const LoadTerm& t, const Iterate& it) const {
    return midpoint_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot});
  }

  const System& system_;
};

MidpointScheme::MidpointScheme(const System& system, const StepperOptions& options) : system_(system) {
  require_unsymmetric_capable_solver(name, options.solver);  // C(q) and f(t, q) make the tangent unsymmetric
  if (!system.constraints().empty())
    throw StepperRefusal(std::string(name) + " treats systems without constraints, but the system has constraint '" +
                         system.constraints().front().element->name() + "'; use livens-em, which takes any constraint");
  // Each inertia's M constant and invertible (steppers/ggl_support.hpp): the kernels read the
  // constant M, and a singular one leaves the tangent singular where no force acts. In the
  // library's words, which the reliability table expects of every stepper of the registry.
  for (const Placed<Inertia>& e : system.inertias()) invert_mass(name, *e.element);
}

/// R += (2/h) M dq; K += (2/h) M. Scale: the terms of (2/h) M dq; floor: 2 max|M| eps ell/|h|
/// (steppers/row_scale.hpp).
void MidpointScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries& M = *t.mass();
  const double s = 2.0 / it.in.h;
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  auto R = out.residual(dq);
  auto scale = out.scale(dq);
  double largest = 0.0;
  for (const Nonzero& e : M.entries()) {
    R(e.row) += s * e.value * dq_local(e.col);
    scale(e.row) += std::abs(s * e.value * dq_local(e.col));
    largest = std::max(largest, std::abs(e.value));
  }
  out.floor(dq).setConstant(largest * 2.0 * rounding_velocity(t.coordinates(it.q1, q1_slot), it.in.h));
  if (out.with_matrix()) M.add_to(s, out.block(dq, dq));
}

/// R += h DV(q_mid); K += h/2 D^2V(q_mid).
void MidpointScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q_mid =
      t.midpoint(t.coordinates(it.in.state.q, q0_slot), t.coordinates(it.q1, q1_slot), mid_slot);
  t.element().add_gradient(q_mid, it.in.h, out.residual(dq));
  if (out.with_matrix()) t.element().add_hessian(q_mid, 0.5 * it.in.h, out.block(dq, dq));
}

/// R += C(q_mid) dq; K += C(q_mid) + 1/2 d(C(q) dq)/dq at q_mid.
void MidpointScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q_mid =
      t.midpoint(t.coordinates(it.in.state.q, q0_slot), t.coordinates(it.q1, q1_slot), mid_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  t.element().add_damping_force(q_mid, dq_local, 1.0, out.residual(dq));
  if (!out.with_matrix()) return;
  t.element().add_damping_matrix(q_mid, 1.0, out.block(dq, dq));
  t.element().add_damping_force_q_jacobian(q_mid, dq_local, 0.5, out.block(dq, dq));
}

/// R -= h f(t_mid, q_mid); K -= h/2 df/dq at q_mid.
void MidpointScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q_mid =
      t.midpoint(t.coordinates(it.in.state.q, q0_slot), t.coordinates(it.q1, q1_slot), mid_slot);
  const double t_mid = it.in.state.t + 0.5 * it.in.h;
  t.element().add_generalized_force(t_mid, q_mid, -it.in.h, out.residual(dq));
  if (out.with_matrix()) t.element().add_generalized_force_q_jacobian(t_mid, q_mid, -0.5 * it.in.h, out.block(dq, dq));
}

using MidpointStepper = SchemeStepper<MidpointScheme>;

}  // namespace noether::toy

namespace noether {
template class SchemeStepper<toy::MidpointScheme>;
}  // namespace noether

using namespace noether;
using toy::MidpointStepper;

namespace {

/// Two point masses joined by a spring of rest length 1.2 and a damper along it, the first hung
/// from (0, 0, 1) by a spring of rest length 0.8, both under gravity, the second pushed by a force
/// that varies in time: nonlinear potentials, a damping matrix C(q) and a load, no constraints.
/// `stiffness` scales both springs.
Mechanism loaded_pair(double stiffness = 1.0) {
  Mechanism m;
  const BodyRef a = m.add_point_mass("a", 1.0, {1.0, 0.0, 0.0}, {0.0, 0.8, 0.2});
  const BodyRef b = m.add_point_mass("b", 2.0, {-0.5, 0.3, 0.1}, {0.0, -0.4, 0.0});
  const Vector origin = Vector::Zero(3);
  m.add(std::make_shared<PointSpring>("a-b", ForcePointPair(a, origin, b, origin),
                                      linear_spring_law(30.0 * stiffness, 1.2)));
  m.add(std::make_shared<PointSpring>("hook", ForcePointPair(a, origin, Eigen::Vector3d(0.0, 0.0, 1.0)),
                                      linear_spring_law(20.0 * stiffness, 0.8)));
  m.add(std::make_shared<AxialPointDamper>("a-b damper", ForcePointPair(a, origin, b, origin), 0.5));
  for (const BodyRef& body : {a, b})
    m.add(std::make_shared<Gravity>(body.name + ".gravity", body, body.name == "a" ? 1.0 : 2.0, origin,
                                    Eigen::Vector3d(0.0, 0.0, -9.81)));
  m.add(std::make_shared<PointForce>("push", b, origin, [](double t) {
    return Vector(Eigen::Vector3d(std::sin(3.0 * t), 0.0, 0.5 * std::cos(2.0 * t)));
  }));
  return m;
}

/// Three point masses joined pairwise by springs, nothing else: central forces, so the linear and
/// angular momentum are first integrals; the springs' energy is not quadratic in q.
Mechanism free_triangle() {
  Mechanism m;
  const std::array<BodyRef, 3> p{m.add_point_mass("p0", 1.0, {1.0, 0.0, 0.0}, {0.0, 0.6, 0.1}),
                                 m.add_point_mass("p1", 1.5, {-0.4, 0.9, 0.0}, {-0.3, 0.0, 0.2}),
                                 m.add_point_mass("p2", 0.7, {-0.3, -0.8, 0.4}, {0.2, -0.5, 0.0})};
  const Vector origin = Vector::Zero(3);
  for (int i = 0; i < 3; ++i) {
    const BodyRef& x = p[static_cast<std::size_t>(i)];
    const BodyRef& y = p[static_cast<std::size_t>((i + 1) % 3)];
    m.add(std::make_shared<PointSpring>(x.name + "-" + y.name, ForcePointPair(x, origin, y, origin),
                                        linear_spring_law(40.0, 1.0)));
  }
  return m;
}

/// The state after `steps` steps of h from the mechanism's initial state.
State run(Stepper& stepper, const Mechanism& mechanism, double h, long steps) {
  State state = mechanism.initial_state();
  stepper.initialize(state);
  for (long n = 0; n < steps; ++n) stepper.step(state, h);
  return state;
}

/// The largest changes of the energy E_n - E_0 (over all `steps` steps of h, and over their first
/// half) and of the linear and angular momentum, of the toy on the free triangle.
struct Invariants {
  double energy = 0.0, energy_first_half = 0.0, linear = 0.0, angular = 0.0;
};
Invariants invariant_changes(double h, long steps) {
  const Mechanism mechanism = free_triangle();
  const System& system = mechanism.system();
  MidpointStepper stepper(system, StepperOptions{});
  State state = mechanism.initial_state();
  stepper.initialize(state);
  const double energy = stepper.conserved_energy(state);
  const Momenta start = momenta(system, state.q, state.v);
  Invariants changes;
  for (long n = 0; n < steps; ++n) {
    if (n == steps / 2) changes.energy_first_half = changes.energy;
    stepper.step(state, h);
    const Momenta now = momenta(system, state.q, state.v);
    changes.energy = std::max(changes.energy, std::abs(stepper.conserved_energy(state) - energy));
    changes.linear = std::max(changes.linear, (now.linear - start.linear).cwiseAbs().maxCoeff());
    changes.angular = std::max(changes.angular, (now.angular - start.angular).cwiseAbs().maxCoeff());
  }
  return changes;
}

}  // namespace

TEST_CASE("a new stepper: the toy scheme meets the contract, and its stepper reports its declarations") {
  static_assert(StepperScheme<toy::MidpointScheme>);
  CHECK(MidpointStepper::stepper_name() == "toy-midpoint");
  CHECK(MidpointStepper::traits().order == 2);
  CHECK_FALSE(MidpointStepper::traits().conserves_energy);
  const Mechanism mechanism = loaded_pair();
  MidpointStepper stepper(mechanism.system(), StepperOptions{});
  CHECK(stepper.name() == "toy-midpoint");
  CHECK_FALSE(stepper.adaptive_step_size());
  // SchemeStepper's checks of the input hold for it as for every stepper of the registry.
  State state = mechanism.initial_state();
  stepper.initialize(state);
  CHECK_THROWS_WITH_AS(stepper.step(state, 0.0), doctest::Contains("toy-midpoint"), std::invalid_argument);
}

TEST_CASE("a new stepper refuses constraints, a configuration-dependent mass and CHOLMOD, naming them") {
  Mechanism constrained;
  constrained.add_planar_body("bar", PlanarBodyProperties{.mass = 1.0, .inertia = 0.1});
  CHECK_THROWS_WITH_AS(MidpointStepper(constrained.system(), StepperOptions{}),
                       "toy-midpoint treats systems without constraints, but the system has constraint "
                       "'bar.orthonormality'; use livens-em, which takes any constraint",
                       StepperRefusal);

  System spherical;
  const BlockId point = spherical.add_block("point", {"r", "theta", "phi"});
  spherical.add(
      std::make_shared<ConfigurationInertia>("point.mass", std::vector{point}, 3, spherical_point_mass(1.0)));
  CHECK_THROWS_WITH_AS(MidpointStepper(spherical, StepperOptions{}),
                       doctest::Contains("toy-midpoint needs a constant invertible mass matrix, but inertia "
                                         "'point.mass' depends on the configuration"),
                       StepperRefusal);

  StepperOptions cholmod;
  cholmod.solver = LinearSolverKind::cholmod;
  CHECK_THROWS_WITH_AS(MidpointStepper(loaded_pair().system(), cholmod),
                       doctest::Contains("toy-midpoint: CHOLMOD needs a symmetric positive definite matrix"),
                       StepperRefusal);
}

TEST_CASE("a new stepper converges with its declared order against a library stepper") {
  // Reference: livens-em4 (order 4) at h = 1/1600, its error far below the toy's at h = 0.005.
  constexpr double kEnd = 1.0;
  const Mechanism mechanism = loaded_pair();
  const auto reference_stepper = find_stepper("livens-em4").make(mechanism.system(), StepperOptions{});
  const State reference = run(*reference_stepper, mechanism, kEnd / 1600, 1600);
  std::vector<double> q_errors, p_errors;
  for (long steps : {50, 100, 200}) {
    MidpointStepper stepper(mechanism.system(), StepperOptions{});
    const State state = run(stepper, mechanism, kEnd / static_cast<double>(steps), steps);
    q_errors.push_back((state.q - reference.q).cwiseAbs().maxCoeff());
    p_errors.push_back((state.p - reference.p).cwiseAbs().maxCoeff());
  }
  for (std::size_t i = 0; i + 1 < q_errors.size(); ++i) {
    const double q_order = std::log2(q_errors[i] / q_errors[i + 1]);
    const double p_order = std::log2(p_errors[i] / p_errors[i + 1]);
    MESSAGE("h = ", kEnd / (50 << i), ": max|q - q_ref| ", q_errors[i], ", max|p - p_ref| ", p_errors[i],
            "; observed orders ", q_order, " (q), ", p_order, " (p)");
    CHECK(std::abs(q_order - MidpointStepper::traits().order) <= 0.2);
    CHECK(std::abs(p_order - MidpointStepper::traits().order) <= 0.2);
  }
}

TEST_CASE("a new stepper keeps the momenta of central forces, and not the energy, as its traits declare") {
  const Invariants coarse = invariant_changes(0.01, 2000), fine = invariant_changes(0.005, 4000);
  MESSAGE("largest energy change over t = 10 and t = 20: ", coarse.energy_first_half, ", ", coarse.energy,
          " (h = 0.01), ", fine.energy_first_half, ", ", fine.energy, " (h = 0.005); momenta changes ", coarse.linear,
          ", ", coarse.angular);
  // Not conserved (traits.conserves_energy is false): far above Newton's tolerance (measured: 0.05
  // of an energy of 27 at h = 0.01), of order 2 (a quarter when h halves), and without drift: a
  // change growing with t would double from t = 10 to t = 20 (measured: equal at h = 0.01, 1.16
  // times at h = 0.005, as the error's oscillation beats).
  CHECK(MidpointStepper::traits().conserves_energy == (coarse.energy <= 1e-9));
  CHECK(coarse.energy > 1e-6);
  CHECK(std::abs(std::log2(coarse.energy / fine.energy) - 2.0) <= 0.2);
  CHECK(coarse.energy <= 1.5 * coarse.energy_first_half);
  CHECK(fine.energy <= 1.5 * fine.energy_first_half);
  // Quadratic first integrals, kept to Newton's tolerance (momenta of about 1).
  CHECK(coarse.linear <= 1e-12);
  CHECK(coarse.angular <= 1e-12);
}

TEST_CASE("a new stepper is symmetric: a step back with -h returns to the start") {
  const Mechanism mechanism = loaded_pair();
  MidpointStepper stepper(mechanism.system(), StepperOptions{});
  State state = run(stepper, mechanism, 0.01, 10);
  const State start = state;
  for (int n = 0; n < 10; ++n) stepper.step(state, 0.01);
  for (int n = 0; n < 10; ++n) stepper.step(state, -0.01);
  CHECK(state.step == start.step + 20);
  CHECK(std::abs(state.t - start.t) <= 1e-15);
  // Each step is solved to the Newton tolerance only, so the way back misses the start by that.
  CHECK((state.q - start.q).cwiseAbs().maxCoeff() <= 1e-10);
  CHECK((state.v - start.v).cwiseAbs().maxCoeff() <= 1e-9);
}

TEST_CASE("a new stepper's failed step is refined into half-steps by SchemeStepper") {
  // A long step on stiff springs: Newton needs more iterations than allowed; each half-step fewer.
  const Mechanism mechanism = loaded_pair(10.0);
  constexpr double kLong = 0.2;
  StepperOptions few;
  few.newton.max_iterations = 4;
  MidpointStepper refined(mechanism.system(), few);
  State state = mechanism.initial_state();
  refined.initialize(state);
  const State start = state;
  const StepReport report = refined.step(state, kLong);
  CHECK(report.refinements >= 1);
  CHECK(report.substeps == report.refinements + 1);
  CHECK(state.step == 1);
  CHECK(state.t == kLong);
  // The same substeps found as the refinement finds them, by a stepper that does not refine: a
  // step that fails is taken as two halves, each the same way. The same equations, solved alike.
  few.max_refinement_depth = 0;
  MidpointStepper unrefined(mechanism.system(), few);
  int substeps = 0;
  const std::function<void(State&, double)> take = [&](State& s, double h) {
    State trial = s;
    try {
      unrefined.step(trial, h);
      s = trial;
      ++substeps;
    } catch (const NewtonError&) {
      take(s, h / 2);
      take(s, h / 2);
    }
  };
  State expected = start;
  take(expected, kLong);
  CHECK(substeps == report.substeps);
  CHECK((state.q - expected.q).cwiseAbs().maxCoeff() <= 1e-12);

  State kept = start;  // refinement off: the whole step fails and leaves the state
  CHECK_THROWS_AS(unrefined.step(kept, kLong), NewtonError);
  CHECK(kept.q == start.q);
}

TEST_CASE("a new stepper's tangent is exact: Newton converges quadratically") {
  // testing::measure_quadratic_convergence, on stiff springs and a long step, where
  // h^2 k / (4 m) = 0.23 makes the potentials' part of the tangent count.
  const Mechanism mechanism = loaded_pair(3.0);
  MidpointStepper stepper(mechanism.system(), StepperOptions{});
  State state = mechanism.initial_state();
  stepper.initialize(state);
  const testing::QuadraticConvergence c = testing::measure_quadratic_convergence(stepper, state, 0.1, 40);
  MESSAGE("largest quadratic constant ", c.worst, " over ", c.full_steps, " full Newton steps, iterations <= ",
          c.max_iterations);
  CHECK(c.full_steps >= 10);
  CHECK(c.worst <= 1.0);
  CHECK(c.max_iterations <= 5);
}
