/// Errors that name the element at fault: a duplicated joint is reported as
/// dependent constraint equations, a potential that returns NaN by its name, an empty system and
/// an indefinite mass matrix are refused with what is wrong, the same way by every stepper.
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/joints/spherical.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

Vector vec3(double x, double y, double z) { return Vector(Eigen::Vector3d(x, y, z)); }

/// A 3D double pendulum of two bars "upper" and "lower" on spherical joints "pivot" and "elbow",
/// swinging under gravity.
Mechanism double_pendulum() {
  Mechanism m;
  const RigidBodyProperties bar{1.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(0.1, 0.1, 0.02).asDiagonal()};
  const BodyRef upper = m.add_rigid_body("upper", bar, {Eigen::Vector3d(0, 0, -0.5)},
                                         {Eigen::Vector3d(0.5, 0, 0), Eigen::Vector3d(0, -1, 0)});
  const BodyRef lower = m.add_rigid_body("lower", bar, {Eigen::Vector3d(0, 0, -1.5)},
                                         {Eigen::Vector3d(1.5, 0, 0), Eigen::Vector3d(0, -1, 0)});
  m.add(make_spherical_to_ground("pivot", vec3(0, 0, 0), upper, vec3(0, 0, 0.5)));
  m.add(make_spherical("elbow", upper, vec3(0, 0, -0.5), lower, vec3(0, 0, 0.5)));
  for (const BodyRef& body : {upper, lower})
    m.add(std::make_shared<Gravity>(body.name + ".gravity", body, 1.0, vec3(0, 0, 0), vec3(0, 0, -9.81)));
  return m;
}

/// The message of the exception `stepper_name` throws within 100 steps of 0.01 (or at its making
/// or initialization), "" if none.
std::string failure(const Mechanism& mechanism, const std::string& stepper_name, const StepperOptions& options = {}) {
  State state = mechanism.initial_state();
  try {
    const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(mechanism.system(), options);
    stepper->initialize(state);
    for (int n = 0; n < 100; ++n) stepper->step(state, 0.01);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("a duplicated joint is refused at initialize as dependent constraint equations, naming them") {
  Mechanism mechanism = double_pendulum();
  const BodyRef upper = mechanism.bodies()[0], lower = mechanism.bodies()[1];
  mechanism.add(make_spherical("elbow2", upper, vec3(0, 0, -0.5), lower, vec3(0, 0, 0.5)));
  for (const char* name : {"livens-em", "ggl-vi", "em-ggl"}) {
    CAPTURE(name);
    const std::string message = failure(mechanism, name);
    MESSAGE(message);
    CHECK(message.starts_with(std::string(name) + ": 3 constraint equations depend on the others along the motion: "));
    CHECK(message.find("constraint 'elbow2' row 0 depends on constraint 'elbow' row 0") != std::string::npos);
    CHECK(message.find(". Every step's Newton matrix would be singular: drop them with structural_redundancy and "
                       "without_equations") != std::string::npos);
  }
}

TEST_CASE("a duplicated joint stepped as it is is reported as dependent constraint equations, not blamed on an inertia") {
  Mechanism mechanism = double_pendulum();
  const BodyRef upper = mechanism.bodies()[0], lower = mechanism.bodies()[1];
  mechanism.add(make_spherical("elbow2", upper, vec3(0, 0, -0.5), lower, vec3(0, 0, 0.5)));
  StepperOptions allow;
  allow.redundant_equations = StepperOptions::RedundantEquations::allow;
  for (const char* name : {"livens-em", "ggl-vi", "em-ggl"}) {
    CAPTURE(name);
    const std::string message = failure(mechanism, name, allow);
    MESSAGE(message);
    CHECK(message.find("the Newton matrix could not be factorized") != std::string::npos);
    CHECK(message.find("because constraint equations depend on others") != std::string::npos);
    CHECK(message.find("constraint 'elbow2' row 0 depends on constraint 'elbow' row 0") != std::string::npos);
    CHECK(message.find("largest contribution") == std::string::npos);
  }
}

TEST_CASE("a potential that returns NaN is named") {
  Mechanism mechanism = double_pendulum();
  const BodyRef lower = mechanism.bodies()[1];
  // NaN once the lower bar's centre rises above z = -1.49 (about 0.1 s into the swing).
  const auto bad = [](ConstVectorRef q) { return q(2) > -1.49 ? std::numeric_limits<double>::quiet_NaN() : 0.0; };
  PotentialFunction f{.energy = bad,
                      .gradient = [bad](ConstVectorRef q) { return Vector(Vector::Constant(12, bad(q))); },
                      .hessian = [](ConstVectorRef) { return Matrix(Matrix::Zero(12, 12)); }};
  mechanism.add(std::make_shared<FunctionPotential>("bad", std::vector{lower.block}, 12, f));
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    const std::string message = failure(mechanism, info.name);
    MESSAGE(message);
    CHECK(message.find("potential 'bad' gives a non-finite") != std::string::npos);
    CHECK(message.find("orthonormality") == std::string::npos);
  }
}

TEST_CASE("every stepper refuses a system without coordinates") {
  const System empty;
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    // A composition's refusals come from its base stepper, which names itself.
    CHECK_THROWS_WITH_AS(info.make(empty, StepperOptions{}), doctest::Contains(": the system has no coordinates"),
                         StepperRefusal);
  }
}

TEST_CASE("an indefinite mass matrix is refused by its element, or by every stepper at the initial configuration") {
  Matrix indefinite(2, 2);
  indefinite << 1.0, 2.0, 2.0, 1.0;  // eigenvalues 3 and -1
  CHECK_THROWS_WITH_AS(ConstantInertia("mass", {BlockId{0}}, indefinite),
                       doctest::Contains("inertia 'mass': the mass matrix has the negative eigenvalue -1"),
                       std::invalid_argument);
  Matrix singular = Matrix::Zero(2, 2);
  singular(0, 0) = 1.0;
  CHECK(ConstantInertia("mass", {BlockId{0}}, singular).local_size() == 2);  // singular is a mass matrix

  // M(q) = diag(1, 1 - |q|^2): indefinite at q = (2, 0).
  System system;
  const BlockId p = system.add_block("p", {"x", "y"});
  system.add(std::make_shared<ConfigurationInertia>(
      "shrinking", std::vector{p}, 2,
      MassFunction{.mass = [](ConstVectorRef q) { return Matrix(Eigen::Vector2d(1.0, 1.0 - q.squaredNorm()).asDiagonal()); },
                   .mass_derivative = [](ConstVectorRef q, Index i) {
                     return Matrix(Eigen::Vector2d(0.0, -2.0 * q(i)).asDiagonal());
                   },
                   .mass_second_derivative = [](ConstVectorRef, Index i, Index j) {
                     return Matrix(Eigen::Vector2d(0.0, i == j ? -2.0 : 0.0).asDiagonal());
                   }}));
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    State state{.q = Vector::Unit(2, 0) * 2.0, .v = Vector::Unit(2, 1)};
    std::string message;
    try {
      info.make(system, StepperOptions{})->initialize(state);
    } catch (const StepperRefusal& e) {
      message = e.what();
    }
    MESSAGE(message);
    // livens-em takes configuration-dependent M and refuses this one at q0; the others refuse any
    // configuration-dependent M when they are made.
    const bool takes_configuration_dependent = message.find("depends on the configuration") == std::string::npos;
    if (takes_configuration_dependent)
      CHECK(message.find("inertia 'shrinking': M(q) at the initial configuration has the negative eigenvalue -3") !=
            std::string::npos);
    else
      CHECK(!message.empty());
  }
  State inside{.q = Vector::Unit(2, 0) * 0.5, .v = Vector::Unit(2, 1)};
  find_stepper("livens-em").make(system, StepperOptions{})->initialize(inside);  // positive definite there
  CHECK(inside.p(1) == 0.75);
}

TEST_CASE("values beyond the range of double precision are reported as such, with the iterate's size") {
  // `noether run double-pendulum --set omega1_0=1e200` said only "constraint 'rod1' gives a
  // non-finite residual entry (inf)", which blamed a joint for the overflow of the state.
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {{"omega1_0", 1e200}}));
  for (const char* name : {"livens-em", "livens-em4"}) {
    CAPTURE(name);
    State state = model.initial;
    StepperOptions options;
    options.max_refinement_depth = 0;
    const std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model.system, options);
    stepper->initialize(state);
    std::string message;
    try {
      stepper->step(state, 0.01);
    } catch (const NewtonError& e) {
      message = e.what();
    }
    MESSAGE(message);
    CHECK(message.find("constraint 'rod1' gives a non-finite residual entry (inf) at an iterate of max|x| = ") !=
          std::string::npos);
    CHECK(message.find("e+19") != std::string::npos);  // 1e+198 (livens-em), 2.07245e+197 (its first substep in livens-em4)
    CHECK(message.find(": beyond the range of double precision") != std::string::npos);
  }
}

TEST_CASE("a step whose residual overflows fails, whatever rows follow the non-finite one") {
  // The residual of the first step of a 3D chain at a tip speed of 1e200 m/s has rows inf with
  // scale inf (inf / inf = NaN) before finite rows, which replaced the NaN in the scaled norm: Newton
  // took the predictor as converged, and step() returned a state with g(q) = inf and no error.
  const Mechanism chain = make_chain3d(2, ChainJoint::spherical, 1e200);
  for (const char* name : {"livens-em", "em-ggl", "midpoint-vi", "ggl-vi"}) {
    CAPTURE(name);
    State state = chain.initial_state();
    const std::unique_ptr<Stepper> stepper = find_stepper(name).make(chain.system(), StepperOptions{});
    stepper->initialize(state);
    CHECK_THROWS_WITH_AS(stepper->step(state, 0.01), doctest::Contains("beyond the range of double precision"), NewtonError);
    CHECK(state.step == 0);
  }
}

namespace {

/// A planar point mass "ball" at (x, 0) with velocity (vx, 0), tied to the ground point (0, 0) by a
/// linear spring "spring" of rest length 0.3, or by an axial damper "dashpot".
Mechanism ball_on_spring(double x, double vx, bool damper) {
  Mechanism m;
  const BodyRef ball = m.add_planar_point_mass("ball", 1.0, Eigen::Vector2d(x, 0.0), Eigen::Vector2d(vx, 0.0));
  const ForcePointPair points(ball, Vector::Zero(2), Vector::Zero(2));
  if (damper)
    m.add(std::make_shared<AxialPointDamper>("dashpot", points, 1.0));
  else
    m.add(std::make_shared<PointSpring>("spring", points, linear_spring_law(10.0, 0.3)));
  return m;
}

}  // namespace

TEST_CASE("a spring or axial damper whose two points coincide is refused at the start, and named when a step meets it") {
  // A spring of rest length 0.3 between coincident points, or an axial damper there, failed in
  // Newton as "potential 'spring' gives a non-finite residual entry (-nan)": the direction between
  // the points is undefined at zero length, and nothing said so.
  for (const char* name : {"livens-em", "em-ggl", "midpoint-vi", "ggl-vi", "evi", "sem-vi", "lobatto4", "livens-em4"}) {
    CAPTURE(name);
    const std::string spring = failure(ball_on_spring(0.0, 1.0, false), name);
    CHECK(spring == std::string(name) + ": at the initial positions, potential 'spring': the spring's two points "
                                        "coincide (length 0), where the direction of its force is undefined (its law "
                                        "is not finite at zero length); move the points apart, or give a rest length of 0");
    CHECK(failure(ball_on_spring(0.0, 1.0, true), name).find(": at the initial positions, dissipation 'dashpot': the "
                                                             "axial damper's two points coincide (length 0)") !=
          std::string::npos);
  }
  // A step whose end puts the ball on the anchor: the predictor q0 + h v0 = 0.5 - 0.01 * 50.
  StepperOptions options;
  options.max_refinement_depth = 0;
  const std::string message = failure(ball_on_spring(0.5, -50.0, false), "livens-em", options);
  MESSAGE(message);
  CHECK(message.find("potential 'spring' gives a non-finite ") != std::string::npos);
  CHECK(message.find(", potential 'spring': the spring's two points coincide (length 0)") != std::string::npos);
}
