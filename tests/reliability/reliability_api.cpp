/// The C++ API cases of the reliability table (docs/reliability.md, scripts/reliability_table.py):
/// bad input given to the library as a user's program would give it.
///
///   reliability_api --list     one JSON line per case: {"case", "input"}
///   reliability_api CASE       runs CASE and prints one JSON line: {"case", "outcome", ...}
///
/// The outcome is "threw" (with "exception", the most derived of the library's exception types
/// caught, and "message") or "returned" (with "detail", what the program saw). The script runs each
/// case in its own process, so a crash, a sanitizer report or a hang is seen as such; it holds the
/// expected outcome of every case.
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/thread_limit.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/joint_actuator.hpp>
#include <noether/joints/revolute_planar.hpp>
#include <noether/joints/spherical.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/solvers/newton.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "support/call_gate.hpp"

using namespace noether;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
/// The first block of whichever System takes it (a BlockId of no system in particular).
const std::vector<BlockId> kFirstBlock{BlockId{0}};

struct ApiCase {
  std::string name;
  std::string input;                 ///< what the case gives the library, for the table
  std::function<std::string()> run;  ///< returns what it saw when nothing was thrown
};

/// A unit mass in the plane (block "p": x, y) with `element` added.
template <class ElementPointer>
std::shared_ptr<System> plane_mass_with(ElementPointer element) {
  auto system = std::make_shared<System>();
  const BlockId p = system->add_block("p", {"x", "y"});
  system->add(std::make_shared<ConstantInertia>("mass", std::vector{p}, Matrix::Identity(2, 2)));
  system->add(element);
  return system;
}

/// Makes `stepper` on system, initializes (q, v) = ((1, 0), (0, 1)) and takes `steps` steps of h.
std::string step_plane(const System& system, const std::string& stepper, int steps = 3, double h = 0.01) {
  State state{.q = Vector::Unit(2, 0), .v = Vector::Unit(2, 1)};
  const std::unique_ptr<Stepper> s = find_stepper(stepper).make(system, StepperOptions{});
  s->initialize(state);
  for (int n = 0; n < steps; ++n) s->step(state, h);
  std::ostringstream out;
  out << steps << " steps, q = (" << state.q(0) << ", " << state.q(1) << ")";
  return out.str();
}

/// The circle 1/2 (|q|^2 - 1) = 0 with `equations` declared and one returned by value().
ConstraintFunction circle(Index equations) {
  ConstraintFunction f;
  f.num_equations = equations;
  f.value = [](ConstVectorRef q) { return Vector::Constant(1, 0.5 * (q.squaredNorm() - 1.0)); };
  f.jacobian = [equations](ConstVectorRef q) { return Matrix(Matrix(q.transpose()).replicate(equations, 1)); };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef l) { return Matrix(l.sum() * Matrix::Identity(2, 2)); };
  return f;
}

/// V = 1/4 |q|^4, its gradient of `gradient_size` entries; NaN where y > 0.05 when `nan_outside`.
PotentialFunction quartic(Index gradient_size = 2, bool nan_outside = false) {
  PotentialFunction f;
  f.energy = [nan_outside](ConstVectorRef q) {
    return nan_outside && q(1) > 0.05 ? kNaN : 0.25 * q.squaredNorm() * q.squaredNorm();
  };
  f.gradient = [gradient_size, nan_outside](ConstVectorRef q) {
    if (nan_outside && q(1) > 0.05) return Vector(Vector::Constant(gradient_size, kNaN));
    return Vector((q.squaredNorm() * q).head(gradient_size));
  };
  f.hessian = [](ConstVectorRef q) { return Matrix(q.squaredNorm() * Matrix::Identity(2, 2) + 2.0 * q * q.transpose()); };
  return f;
}

/// M(q) = diag(1, -1): indefinite everywhere.
MassFunction indefinite_mass() {
  return {.mass = [](ConstVectorRef) { return Matrix(Eigen::Vector2d(1.0, -1.0).asDiagonal()); },
          .mass_derivative = [](ConstVectorRef, Index) { return Matrix(Matrix::Zero(2, 2)); },
          .mass_second_derivative = [](ConstVectorRef, Index, Index) { return Matrix(Matrix::Zero(2, 2)); }};
}

/// A chain of 3 planar bars stepped by `stepper`: initializes `initial` (the chain's initial state
/// when empty) after `edit` changed it, then takes a step of h.
std::string step_chain(const std::string& stepper, const std::function<void(State&)>& edit, double h = 0.01,
                       bool initialize = true, StepperOptions options = {}) {
  const Mechanism chain = make_chain2d(3);
  const std::unique_ptr<Stepper> s = find_stepper(stepper).make(chain.system(), options);
  State state = chain.initial_state();
  if (initialize) s->initialize(state);
  edit(state);
  const StepReport report = s->step(state, h);
  std::ostringstream out;
  out << "step " << state.step << " to t = " << state.t << " in " << report.iterations << " Newton iterations";
  return out.str();
}

/// Initializes `stepper` on a chain of 3 planar bars from its initial state changed by `edit`.
std::string initialize_chain(const std::string& stepper, const std::function<void(State&)>& edit) {
  const Mechanism chain = make_chain2d(3);
  State state = chain.initial_state();
  edit(state);
  find_stepper(stepper).make(chain.system(), StepperOptions{})->initialize(state);
  return "initialized";
}

/// StepperOptions with one change.
StepperOptions options_with(const std::function<void(StepperOptions&)>& edit) {
  StepperOptions options;
  edit(options);
  return options;
}

/// Appends a case to `cases`.
struct CaseList {
  std::vector<ApiCase>& cases;
  void operator()(std::string name, std::string input, std::function<std::string()> run) const {
    cases.push_back({std::move(name), std::move(input), std::move(run)});
  }
};

/// A state edit that changes nothing.
void no_change(State&) {}

/// User callbacks of the wrong size or NaN, and elements that must be named in errors.
void callback_cases(const CaseList& add) {
  add("function_constraint_wrong_size", "FunctionConstraint declaring 2 equations whose value() returns 1 entry; livens-em steps",
      [] { return step_plane(*plane_mass_with(std::make_shared<FunctionConstraint>("circle", kFirstBlock, 2, circle(2))), "livens-em"); });
  add("function_potential_wrong_size", "FunctionPotential whose gradient() returns 1 entry for 2 coordinates; livens-em steps",
      [] { return step_plane(*plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, quartic(1))), "livens-em"); });
  add("function_potential_nan", "FunctionPotential returning NaN where y > 0.05 (the mass starts at y = 0 moving up at 1 m/s); livens-em steps h = 0.1",
      [] { return step_plane(*plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, quartic(2, true))), "livens-em", 20, 0.1); });
  add("function_constraint_nan", "FunctionConstraint whose value() is NaN everywhere; livens-em initializes and steps", [] {
    ConstraintFunction f = circle(1);
    f.value = [](ConstVectorRef) { return Vector::Constant(1, kNaN); };
    return step_plane(*plane_mass_with(std::make_shared<FunctionConstraint>("circle", kFirstBlock, 2, f)), "livens-em");
  });
  add("function_potential_inf_at_start", "FunctionPotential whose energy is +inf everywhere; livens-em steps", [] {
    PotentialFunction f = quartic();
    f.energy = [](ConstVectorRef) { return kInf; };
    return step_plane(*plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, f)), "livens-em");
  });
  add("sem_vi_at_rest", "sem-vi on a free unit mass at rest (no energy to fix a step size)", [] {
    auto system = std::make_shared<System>();
    const BlockId p = system->add_block("p", {"x", "y"});
    system->add(std::make_shared<ConstantInertia>("mass", std::vector{p}, Matrix::Identity(2, 2)));
    State state{.q = Vector::Zero(2), .v = Vector::Zero(2)};
    const std::unique_ptr<Stepper> s = find_stepper("sem-vi").make(*system, StepperOptions{});
    s->initialize(state);
    const StepReport report = s->step(state, 0.01);
    std::ostringstream out;
    out << "step to t = " << state.t << " (size " << report.step_size << ")";
    return out.str();
  });
  add("constant_inertia_nan", "ConstantInertia with M = diag(1, NaN)", [] {
    ConstantInertia("mass", kFirstBlock, Matrix(Eigen::Vector2d(1.0, kNaN).asDiagonal()));
    return std::string("constructed");
  });
  add("planar_body_nan_inertia", "Mechanism::add_planar_body with inertia NaN", [] {
    Mechanism m;
    m.add_planar_body("bar", {.mass = 1.0, .inertia = kNaN});
    return std::string("added");
  });
  add("function_constraint_missing_function", "FunctionConstraint without a jacobian function", [] {
    ConstraintFunction f = circle(1);
    f.jacobian = nullptr;
    FunctionConstraint("circle", kFirstBlock, 2, f);
    return std::string("constructed");
  });
  add("function_potential_size_mismatch", "FunctionPotential of local size 3 added on a block of 2 coordinates",
      [] { plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 3, quartic())); return std::string("added"); });
}

/// A planar bar of 1 kg and 1 m hinged at its end to the ground, with a motor at the hinge whose law is
/// `law`: 3 steps of livens-em.
std::string step_motor_pendulum(const ActuatorLaw& law) {
  Mechanism m;
  const BodyRef bar = m.add_planar_body("bar", {1.0, Eigen::Vector2d::Zero(), 1.0 / 12}, {0.5, 0, 0});
  m.add(make_revolute_planar_to_ground("pivot", Eigen::Vector2d(0, 0), bar, Eigen::Vector2d(-0.5, 0)));
  m.add(std::make_shared<JointActuator>("motor", std::make_shared<HingeCoordinate>(HingeAngle::planar_from_ground(bar)),
                                        law));
  State state = m.initial_state();
  const std::unique_ptr<Stepper> s = find_stepper("livens-em").make(m.system(), StepperOptions{});
  s->initialize(state);
  for (int n = 0; n < 3; ++n) s->step(state, 0.01);
  return "3 steps";
}

/// Actuators: their laws' profiles and gains, and a user's law that returns NaN.
void actuator_cases(const CaseList& add) {
  add("actuator_profile_nan", "profile_law(ConstantProfile{NaN}, \"actuator 'motor'\")", [] {
    profile_law(ConstantProfile{kNaN}, "actuator 'motor'");
    return std::string("made");
  });
  add("actuator_pd_reference_inf", "pd_law of a hinge with the reference SineProfile{amplitude inf}", [] {
    Mechanism m;
    const BodyRef bar = m.add_planar_body("bar", {1.0, Eigen::Vector2d::Zero(), 1.0 / 12}, {0.5, 0, 0});
    pd_law(HingeCoordinate(HingeAngle::planar_from_ground(bar)), 10.0, 1.0, SineProfile{kInf, 1.0, 0.0, 0.0},
           "actuator 'motor'");
    return std::string("made");
  });
  add("actuator_pd_gain_negative", "pd_law with kd = -1", [] {
    Mechanism m;
    const BodyRef bar = m.add_planar_body("bar", {1.0, Eigen::Vector2d::Zero(), 1.0 / 12}, {0.5, 0, 0});
    pd_law(HingeCoordinate(HingeAngle::planar_from_ground(bar)), 10.0, -1.0, ConstantProfile{0.0}, "actuator 'motor'");
    return std::string("made");
  });
  add("actuator_law_nan", "a JointActuator whose ActuatorLaw returns NaN; livens-em steps",
      [] { return step_motor_pendulum([](double, double, double) { return ActuatorJet{kNaN, 0.0, 0.0}; }); });
}

/// Masses.
void mass_cases(const CaseList& add) {
  add("constant_inertia_indefinite", "ConstantInertia with M = diag(1, -1)", [] {
    ConstantInertia("mass", kFirstBlock, Matrix(Eigen::Vector2d(1.0, -1.0).asDiagonal()));
    return std::string("constructed");
  });
  add("constant_inertia_nonsymmetric", "ConstantInertia with M = [[1, 1], [0, 1]]", [] {
    Matrix m(2, 2);
    m << 1, 1, 0, 1;
    ConstantInertia("mass", kFirstBlock, m);
    return std::string("constructed");
  });
  for (const StepperInfo& info : steppers()) {
    const std::string name = info.name;
    add("mass_function_indefinite/" + name, "ConfigurationInertia with M(q) = diag(1, -1); " + name + " initializes and steps", [name] {
      auto system = std::make_shared<System>();
      const BlockId p = system->add_block("p", {"x", "y"});
      system->add(std::make_shared<ConfigurationInertia>("pendulum", std::vector{p}, 2, indefinite_mass()));
      return step_plane(*system, name);
    });
  }
  add("rigid_body_negative_mass", "Mechanism::add_rigid_body with mass -1", [] {
    Mechanism m;
    m.add_rigid_body("bar", {.mass = -1.0, .inertia = Eigen::Matrix3d::Identity()});
    return std::string("added");
  });
  add("rigid_body_triangle_inequality", "add_rigid_body with principal moments (1, 1, 3)", [] {
    Mechanism m;
    m.add_rigid_body("bar", {.mass = 1.0, .inertia = Eigen::Vector3d(1.0, 1.0, 3.0).asDiagonal().toDenseMatrix()});
    return std::string("added");
  });
  add("rigid_body_nan_position", "add_rigid_body at position (NaN, 0, 0)", [] {
    Mechanism m;
    m.add_rigid_body("bar", {.mass = 1.0, .inertia = Eigen::Matrix3d::Identity()}, {.position = Eigen::Vector3d(kNaN, 0, 0)});
    return std::string("added");
  });
  add("rigid_body_not_a_rotation", "add_rigid_body with rotation 2 I", [] {
    Mechanism m;
    m.add_rigid_body("bar", {.mass = 1.0, .inertia = Eigen::Matrix3d::Identity()}, {.rotation = 2.0 * Eigen::Matrix3d::Identity()});
    return std::string("added");
  });
  add("point_mass_zero", "Mechanism::add_point_mass with mass 0", [] {
    Mechanism m;
    m.add_point_mass("ball", 0.0, Eigen::Vector3d::Zero());
    return std::string("added");
  });
  add("rigid_body_subnormal_mass", "Mechanism::add_rigid_body with mass 1e-320 (subnormal)", [] {
    Mechanism m;
    m.add_rigid_body("bar", {.mass = 1e-320, .inertia = Eigen::Matrix3d::Identity()});
    return std::string("added");
  });
  add("planar_body_subnormal_inertia", "Mechanism::add_planar_body with inertia 1e-320 (subnormal)", [] {
    Mechanism m;
    m.add_planar_body("bar", {.mass = 1.0, .inertia = 1e-320});
    return std::string("added");
  });
  add("constant_inertia_subnormal", "ConstantInertia with M = diag(1, 1e-320) (subnormal)", [] {
    ConstantInertia("mass", kFirstBlock, Matrix(Eigen::Vector2d(1.0, 1e-320).asDiagonal()));
    return std::string("constructed");
  });
}

/// Systems and handles (defect 11).
void system_cases(const CaseList& add) {
  for (const StepperInfo& info : steppers()) {
    const std::string name = info.name;
    add("empty_system/" + name, "a System with no blocks given to " + name, [name] {
      const System system;
      find_stepper(name).make(system, StepperOptions{});
      return std::string("made");
    });
  }
  add("duplicate_block_name", "System::add_block twice with the name 'p'", [] {
    System system;
    system.add_block("p", 2);
    system.add_block("p", 2);
    return std::string("added");
  });
  add("duplicate_element_name", "two potentials named 'quartic'", [] {
    const auto system = plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, quartic()));
    system->add(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, quartic()));
    return std::string("added");
  });
  add("colliding_coordinate_labels", "Mechanism: a planar body 'bar' (coordinates phi.x, ...), then a point mass 'bar.phi' (x, y)", [] {
    Mechanism m;
    m.add_planar_body("bar", PlanarBodyProperties{.mass = 1.0, .inertia = 0.1});
    m.add_planar_point_mass("bar.phi", 1.0, Eigen::Vector2d::Zero());
    return std::string("added");
  });
  add("coordinate_named_twice", "System::add_block(\"c\", {\"a\", \"a\"})", [] {
    System system;
    system.add_block("c", {"a", "a"});
    return std::string("added");
  });
  add("name_with_nul", "Mechanism::add_point_mass with the name \"a\\0b\" (a NUL inside)", [] {
    Mechanism m;
    m.add_point_mass(std::string("a\0b", 3), 1.0, Eigen::Vector3d::Zero());
    return std::string("added");
  });
  add("null_element", "System::add(nullptr potential)", [] {
    System system;
    system.add(std::shared_ptr<const Potential>());
    return std::string("added");
  });
  add("block_of_another_mechanism", "a spherical joint built from the BodyRef of another Mechanism", [] {
    Mechanism a, b;
    a.add_point_mass("a0", 1.0, Eigen::Vector3d::Zero());
    const BodyRef foreign = b.add_point_mass("b0", 1.0, Eigen::Vector3d::UnitY());
    a.add(make_spherical_to_ground("foreign", Vector(Eigen::Vector3d::UnitY()), foreign, Vector::Zero(3)));
    return std::string("added");
  });
  add("step_after_mechanism_destroyed", "livens-em made on a Mechanism's system, the Mechanism destroyed, then 3 steps", [] {
    std::unique_ptr<Stepper> stepper;
    State state;
    {
      const Mechanism chain = make_chain2d(3);
      stepper = find_stepper("livens-em").make(chain.system(), StepperOptions{});
      state = chain.initial_state();
    }
    stepper->initialize(state);
    for (int n = 0; n < 3; ++n) stepper->step(state, 0.01);
    std::ostringstream out;
    out << "stepped to step " << state.step << ", t = " << state.t;
    return out.str();
  });
}

/// livens-em on the plane mass in the quartic well, its first step held inside by a gate while
/// a second thread steps the same stepper; rethrows what the second thread's step threw.
std::string step_from_two_threads() {
  const auto gate = std::make_shared<testing::CallGate>();
  PotentialFunction well = quartic();
  well.gradient = [gate, gradient = well.gradient](ConstVectorRef q) { gate->pass(); return gradient(q); };
  const auto system = plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, well));
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*system, StepperOptions{});
  State first{.q = Vector::Unit(2, 0), .v = Vector::Unit(2, 1)};
  stepper->initialize(first);
  State second = first;
  gate->arm();
  std::thread stepping([&] {
    try {
      stepper->step(first, 0.01);
    } catch (const std::exception&) {
    }
    gate->release();
  });
  gate->wait_inside();
  std::exception_ptr error;
  try {
    stepper->step(second, 0.01);
  } catch (...) {
    error = std::current_exception();
  }
  gate->release();
  stepping.join();
  if (error) std::rethrow_exception(error);
  return "both threads stepped: steps " + std::to_string(first.step) + " and " + std::to_string(second.step);
}

/// Stepper use: elements added after a stepper was made, a stepper stepped from two threads, a
/// structurally redundant mechanism stepped without dropping its redundant row, a thread limit
/// beyond the cores.
void use_cases(const CaseList& add) {
  add("add_after_stepper", "System::add of a potential 'late' after livens-em was made on the system", [] {
    const auto system = plane_mass_with(std::make_shared<FunctionPotential>("quartic", kFirstBlock, 2, quartic()));
    const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*system, StepperOptions{});
    system->add(std::make_shared<FunctionPotential>("late", kFirstBlock, 2, quartic()));
    return std::string("added");
  });
  add("step_from_two_threads", "one livens-em stepper stepped by a second thread while its first step runs",
      step_from_two_threads);
  for (const StepperInfo& info : steppers()) {
    const std::string name = info.name;
    add("bricard_not_dropped/" + name, "the Bricard linkage (scenario bricard) given to " + name +
        " without dropping its redundant equation; initialize and 10 steps", [name] {
      const Scenario& bricard = find_scenario("bricard");
      const Model model = bricard.build(resolve_parameters(bricard, {}));
      State state = model.initial;
      const std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model.system, StepperOptions{});
      stepper->initialize(state);
      for (int n = 0; n < 10; ++n) stepper->step(state, 0.01);
      return "stepped to t = " + std::to_string(state.t);
    });
  }
  add("thread_limit_huge", "ThreadLimit(2147483647), then a step of a chain of 3 bars", [] {
    const ThreadLimit limit(std::numeric_limits<int>::max());
    step_chain("livens-em", no_change);
    return "bounded at " + std::to_string(limit.threads()) + " threads, the cores available";
  });
}

/// States and time steps (the stepper's input).
void state_cases(const CaseList& add) {
  add("initial_q_nan", "chain of 3 bars, q(7) = NaN before initialize",
      [] { return initialize_chain("livens-em", [](State& s) { s.q(7) = kNaN; }); });
  add("initial_v_inf", "chain of 3 bars, v(0) = inf before initialize (em-ggl)",
      [] { return initialize_chain("em-ggl", [](State& s) { s.v(0) = kInf; }); });
  add("initial_off_constraints", "chain of 3 bars, bar1 moved by 1e-3 before initialize",
      [] { return initialize_chain("livens-em", [](State& s) { s.q(6) += 1e-3; }); });
  add("step_before_initialize", "chain of 3 bars stepped without initialize (p, lambda empty)",
      [] { return step_chain("livens-em", no_change, 0.01, false); });
  add("state_q_wrong_size", "state.q of 17 entries for 18 coordinates",
      [] { return step_chain("livens-em", [](State& s) { s.q.conservativeResize(17); }); });
  add("state_lambda_wrong_size", "state.lambda emptied after initialize (ggl-vi)",
      [] { return step_chain("ggl-vi", [](State& s) { s.lambda.resize(0); }); });
  add("state_t_inf", "state.t = inf", [] { return step_chain("livens-em", [](State& s) { s.t = kInf; }); });
  add("h_zero", "step(state, 0)", [] { return step_chain("livens-em", no_change, 0.0); });
  add("h_nan", "step(state, NaN)", [] { return step_chain("midpoint-vi", no_change, kNaN); });
  add("h_inf", "step(state, inf)", [] { return step_chain("em-ggl", no_change, kInf); });
  add("h_negative", "step(state, -0.01): steps back in time", [] { return step_chain("livens-em", no_change, -0.01); });
  add("h_huge", "step(state, 1e6) without refinement (refine depth 0)", [] {
    return step_chain("livens-em", no_change, 1e6, true, options_with([](StepperOptions& o) { o.max_refinement_depth = 0; }));
  });

  for (const char* name : {"livens-em", "em-ggl", "midpoint-vi", "ggl-vi"}) {
    const std::string stepper = name;
    add("velocity_overflow/" + stepper, "make_chain3d(2, spherical) with tip speed 1e200 m/s; " + stepper + " takes a step of 0.01",
        [stepper] {
          const Mechanism chain = make_chain3d(2, ChainJoint::spherical, 1e200);
          State state = chain.initial_state();
          const std::unique_ptr<Stepper> s = find_stepper(stepper).make(chain.system(), StepperOptions{});
          s->initialize(state);
          const StepReport report = s->step(state, 0.01);
          Vector g(chain.system().num_multipliers());
          calc_constraint_values(chain.system(), state.q, g);
          std::ostringstream out;
          out << "returned a state with max|q| = " << state.q.cwiseAbs().maxCoeff() << ", max|g(q)| = " << g.cwiseAbs().maxCoeff()
              << " after " << report.iterations << " Newton iterations";
          return out.str();
        });
  }
}

/// Options.
void option_cases(const CaseList& add) {
  add("solver_cholmod", "StepperOptions::solver = cholmod for livens-em", [] {
    return step_chain("livens-em", no_change, 0.01, true, options_with([](StepperOptions& o) { o.solver = LinearSolverKind::cholmod; }));
  });
  add("newton_tolerance_zero", "NewtonOptions::residual_tolerance = 0", [] {
    return step_chain("livens-em", no_change, 0.01, true, options_with([](StepperOptions& o) { o.newton.residual_tolerance = 0.0; }));
  });
  add("newton_max_iterations_zero", "NewtonOptions::max_iterations = 0", [] {
    return step_chain("livens-em", no_change, 0.01, true, options_with([](StepperOptions& o) { o.newton.max_iterations = 0; }));
  });
  add("refine_depth_31", "StepperOptions::max_refinement_depth = 31", [] {
    return step_chain("livens-em", no_change, 0.01, true, options_with([](StepperOptions& o) { o.max_refinement_depth = 31; }));
  });
  add("unknown_scheme_parameter", "livens-em with scheme parameter S = 3 (evi's)", [] {
    return step_chain("livens-em", no_change, 0.01, true, options_with([](StepperOptions& o) { o.scheme_parameters["S"] = 3; }));
  });
  add("evi_S_zero", "evi with S = 0", [] {
    return step_chain("evi", no_change, 0.01, true, options_with([](StepperOptions& o) { o.scheme_parameters["S"] = 0; }));
  });
  add("evi_S_fraction", "evi with S = 2.5", [] {
    return step_chain("evi", no_change, 0.01, true, options_with([](StepperOptions& o) { o.scheme_parameters["S"] = 2.5; }));
  });
  add("ggl_vi_singular_mass", "ggl-vi on a plane mass with M = diag(1, 0)", [] {
    auto system = std::make_shared<System>();
    const BlockId p = system->add_block("p", {"x", "y"});
    system->add(std::make_shared<ConstantInertia>("mass", std::vector{p}, Matrix(Eigen::Vector2d(1.0, 0.0).asDiagonal())));
    find_stepper("ggl-vi").make(*system, StepperOptions{});
    return std::string("made");
  });
  add("projection_far_off", "project_initial_state of a chain of 3 bars whose bar1 is moved by 1 m", [] {
    const Mechanism chain = make_chain2d(3);
    State state = chain.initial_state();
    state.q(6) += 1.0;
    const InitialProjection p = project_initial_state(chain.system(), state);
    std::ostringstream out;
    out << "projected, max|dq| = " << p.position_correction;
    return out.str();
  });
}

std::vector<ApiCase> make_cases() {
  std::vector<ApiCase> cases;
  const CaseList add{cases};
  for (const auto& group : {callback_cases, actuator_cases, mass_cases, system_cases, use_cases, state_cases, option_cases})
    group(add);
  return cases;
}

/// The most derived of the library's exception types that e is, by name.
const char* exception_type(const std::exception& e) {
  if (dynamic_cast<const StepperRefusal*>(&e)) return "StepperRefusal";
  if (dynamic_cast<const InconsistentInitialValues*>(&e)) return "InconsistentInitialValues";
  if (dynamic_cast<const std::invalid_argument*>(&e)) return "std::invalid_argument";
  if (dynamic_cast<const std::logic_error*>(&e)) return "std::logic_error";
  if (dynamic_cast<const NewtonError*>(&e)) return "NewtonError";
  if (dynamic_cast<const ProjectionError*>(&e)) return "ProjectionError";
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "std::bad_alloc";
  return "std::exception";
}

/// Runs one case and prints its JSON line; 0 when it printed one.
int run_case(const ApiCase& c) {
  nlohmann::json out{{"case", c.name}};
  try {
    out["detail"] = c.run();
    out["outcome"] = "returned";
  } catch (const std::exception& e) {
    out["outcome"] = "threw";
    out["exception"] = exception_type(e);
    out["message"] = e.what();
  }
  std::printf("%s\n", out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<ApiCase> cases = make_cases();
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const ApiCase& c : cases)
      std::printf("%s\n", nlohmann::json{{"case", c.name}, {"input", c.input}}.dump().c_str());
    return 0;
  }
  if (argc == 2)
    for (const ApiCase& c : cases)
      if (c.name == argv[1]) return run_case(c);
  std::fprintf(stderr, "usage: reliability_api --list | reliability_api CASE (one of --list)\n");
  return 2;
}
