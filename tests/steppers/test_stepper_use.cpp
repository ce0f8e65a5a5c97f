/// How a stepper may be used (steppers/stepper.hpp, engine/system.hpp): its System stays as it was
/// while the stepper lives (a block or element added later is refused, naming it), and it is one
/// thread's at a time (a second call running into a step throws, naming the stepper, and the step
/// it ran into completes), while several steppers on one System step in as many threads.
#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "support/call_gate.hpp"

using namespace noether;

namespace {

/// Gravity on `body` of a planar mechanism, named `name`.
std::shared_ptr<Gravity> gravity(const std::string& name, const BodyRef& body) {
  return std::make_shared<Gravity>(name, body, 1.0, Vector(Eigen::Vector2d::Zero()), Vector(Eigen::Vector2d(0, -9.81)));
}

/// A unit mass on the line (block "p") in the quartic well V = q^4 / 4, whose energy and gradient
/// pass through `gate`.
std::shared_ptr<System> gated_well(const std::shared_ptr<testing::CallGate>& gate) {
  auto system = std::make_shared<System>();
  const BlockId p = system->add_block("p", {"x"});
  system->add(std::make_shared<ConstantInertia>("mass", std::vector{p}, Matrix::Identity(1, 1)));
  PotentialFunction well{.energy = [gate](ConstVectorRef q) { gate->pass(); return 0.25 * std::pow(q(0), 4); },
                         .gradient = [gate](ConstVectorRef q) { gate->pass(); return Vector(Vector::Constant(1, std::pow(q(0), 3))); },
                         .hessian = [](ConstVectorRef q) { return Matrix(Matrix::Constant(1, 1, 3 * q(0) * q(0))); }};
  system->add(std::make_shared<FunctionPotential>("well", std::vector{p}, 1, well));
  return system;
}

}  // namespace

TEST_CASE("while a stepper lives, its System refuses further blocks and elements, naming them and the stepper") {
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    Mechanism chain = make_chain2d(2);
    std::unique_ptr<Stepper> stepper = info.make(chain.system(), StepperOptions{});
    const BodyRef bar = chain.bodies()[0];
    const std::string user = "added to a system that stepper '" + std::string(info.name) + "' uses";
    CHECK_THROWS_WITH_AS(chain.add(gravity("late gravity", bar)), doctest::Contains(("element 'late gravity' " + user).c_str()),
                         std::logic_error);
    CHECK_THROWS_WITH_AS(chain.add(gravity("late gravity", bar)), doctest::Contains("a stepper sizes its equations"),
                         std::logic_error);
    CHECK_THROWS_WITH_AS(chain.add_planar_body("late bar", {.mass = 1.0, .inertia = 0.1}),
                         doctest::Contains(("coordinate block 'late bar' " + user).c_str()), std::logic_error);
    CHECK_THROWS_WITH_AS(chain.add_planar_body("late bar", {.mass = 1.0, .inertia = 0.1}),
                         doctest::Contains("make new ones after adding"), std::logic_error);
    CHECK(chain.initial_state().q.size() == chain.system().num_coordinates());  // the refused body left no trace
    stepper.reset();
    chain.add(gravity("late gravity", bar));  // no stepper uses the system any more
    CHECK(chain.system().potentials().size() == 3);
  }
}

TEST_CASE("a ConstraintProjector uses its System too, and a copy of a System in use is a new System") {
  const auto spring = [](const std::string& name, BlockId p) {
    PotentialFunction f{.energy = [](ConstVectorRef q) { return 0.5 * q.squaredNorm(); },
                        .gradient = [](ConstVectorRef q) { return Vector(q); },
                        .hessian = [](ConstVectorRef) { return Matrix(Matrix::Identity(2, 2)); },
                        .nonlinearity = Nonlinearity::quadratic};
    return std::make_shared<FunctionPotential>(name, std::vector{p}, 2, f);
  };
  System system;
  const BlockId p = system.add_block("p", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("mass", std::vector{p}, Matrix::Identity(2, 2)));
  {
    const ConstraintProjector projector(system);
    CHECK_THROWS_WITH_AS(system.add(spring("late spring", p)),
                         doctest::Contains("element 'late spring' added to a system that a ConstraintProjector uses"),
                         std::logic_error);
    System copy = system;
    copy.add(spring("late spring", p));  // the copy is no one's yet
    CHECK(copy.potentials().size() == 1);
    CHECK_THROWS_WITH_AS(system = copy, doctest::Contains("a System that a ConstraintProjector uses cannot be assigned to"),
                         std::logic_error);
    CHECK(system.potentials().empty());
  }
  system.add(spring("late spring", p));  // the projector is gone
  CHECK(system.potentials().size() == 1);
}

TEST_CASE("one stepper stepped from two threads: the second call throws naming the stepper, the first step completes") {
  const auto gate = std::make_shared<testing::CallGate>();
  const std::shared_ptr<System> system = gated_well(gate);
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*system, StepperOptions{});
  State first{.q = Vector::Constant(1, 1.0), .v = Vector::Zero(1)};
  stepper->initialize(first);
  State second = first;
  gate->arm();

  std::exception_ptr first_error;
  std::thread stepping([&] {
    try {
      stepper->step(first, 0.01);
    } catch (...) {
      first_error = std::current_exception();
    }
    gate->release();  // should its step not have reached the gate
  });
  const bool held = gate->wait_inside();  // the first thread is inside its step
  std::string step_error, checkpoint_error;
  try {
    stepper->step(second, 0.01);
  } catch (const std::logic_error& e) {
    step_error = e.what();
  }
  try {
    stepper->checkpoint();
  } catch (const std::logic_error& e) {
    checkpoint_error = e.what();
  }
  gate->release();
  stepping.join();

  REQUIRE(held);
  CHECK(step_error.starts_with("livens-em: step() called while step() runs on this stepper: a Stepper is one "
                               "thread's at a time; make one stepper per thread"));
  CHECK(checkpoint_error.starts_with("livens-em: checkpoint() called while step() runs on this stepper"));
  CHECK(second.step == 0);  // the refused call left its state as it was
  CHECK_FALSE(first_error);
  CHECK(first.step == 1);
  stepper->step(first, 0.01);  // once the first step is done, the stepper takes the next call
  CHECK(first.step == 2);
}

TEST_CASE("two steppers on one System, one per thread, step at once and take the same steps as one thread alone") {
  const Mechanism chain = make_chain2d(20);
  const auto walk = [&chain] {
    const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(chain.system(), StepperOptions{});
    State state = chain.initial_state();
    stepper->initialize(state);
    for (int n = 0; n < 50; ++n) stepper->step(state, 0.01);
    return state.q;
  };
  const Vector alone = walk();
  Vector first, second;
  std::thread other([&] { second = walk(); });
  first = walk();
  other.join();
  CHECK(first == alone);
  CHECK(second == alone);
}
