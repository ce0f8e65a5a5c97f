/// Lifetimes and ownership (engine/system.hpp): a stepper shares the ownership of a System that a
/// std::shared_ptr owns (a Mechanism's), so it keeps stepping after the Mechanism is destroyed;
/// a System refuses the BlockId or BodyRef of another one instead of taking its own block of the
/// same index.
#include <memory>

#include <doctest/doctest.h>

#include <noether/bodies/body_state.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/joints/spherical.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/solvers/redundancy.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

TEST_CASE("a stepper keeps stepping after the Mechanism that made its system is destroyed") {
  for (const StepperInfo& info : steppers()) {
    // The pinned ball below has no motion whose energy balance could fix an adaptive step's size.
    if (info.adaptive_step_size) continue;
    CAPTURE(info.name);
    std::unique_ptr<Stepper> stepper;
    std::unique_ptr<ConstraintProjector> projector;
    State state;
    std::weak_ptr<const System> observer;
    {
      Mechanism mechanism;
      const BodyRef ball = mechanism.add_point_mass("ball", 2.0, Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0));
      mechanism.add(make_spherical_to_ground("ground", Vector(Eigen::Vector3d(3, 0, 0)), ball, Vector::Zero(3)));
      stepper = info.make(mechanism.system(), StepperOptions{});
      projector = std::make_unique<ConstraintProjector>(mechanism.system());
      observer = mechanism.system().weak_from_this();
      state = mechanism.initial_state();
    }
    CHECK(!observer.expired());  // the stepper and the projector own it now
    // The ball is held at (3, 0, 0) by the joint, which its initial position (1, 0, 0) violates:
    // the projector moves it there, the stepper keeps it there (a free ball at rest but for the joint).
    projector->project_positions(state.q);
    state.v.setZero();
    stepper->initialize(state);
    for (int n = 0; n < 3; ++n) stepper->step(state, 0.1);
    CHECK(state.step == 3);
    CHECK((state.q - Vector(Eigen::Vector3d(3, 0, 0))).cwiseAbs().maxCoeff() <= 1e-14);
    stepper.reset();
    projector.reset();
    CHECK(observer.expired());  // and release it with the last of them
  }
}

TEST_CASE("a system refuses the BodyRef or BlockId of another system, naming the element") {
  Mechanism a, b;
  a.add_point_mass("a0", 1.0, Eigen::Vector3d::Zero());
  a.add_point_mass("a1", 1.0, Eigen::Vector3d::UnitX());
  b.add_point_mass("b0", 1.0, Eigen::Vector3d::Zero());
  const BodyRef b1 = b.add_point_mass("b1", 1.0, Eigen::Vector3d::UnitY());
  // b1 has the block index of a1 (1): a must not take it as a1.
  CHECK_THROWS_WITH_AS(a.add(make_spherical_to_ground("foreign", Vector(Eigen::Vector3d::UnitY()), b1, Vector::Zero(3))),
                       doctest::Contains("element 'foreign' refers to block id 1 of another system"),
                       std::invalid_argument);
  CHECK(a.system().num_multipliers() == 0);
  CHECK_THROWS_WITH_AS(body_coordinates(a.system(), b1, a.initial_state().q), doctest::Contains("another system"),
                       std::invalid_argument);
  b.add(make_spherical_to_ground("own", Vector(Eigen::Vector3d::UnitY()), b1, Vector::Zero(3)));
  CHECK(b.system().num_multipliers() == 3);

  // A hand-made BlockId names the block of its index in whichever system takes it; a copy of a
  // system, and blocks_only(), keep the handles valid.
  CHECK(a.system().block(BlockId{1}).name == "a1");
  const std::unique_ptr<System> variant = b.system().blocks_only();
  CHECK(variant->block(b1.block).name == "b1");
  variant->add(make_spherical_to_ground("again", Vector(Eigen::Vector3d::UnitY()), b1, Vector::Zero(3)));
  const System copy = b.system();
  CHECK(body_coordinates(copy, b1, b.initial_state().q) == Vector(Eigen::Vector3d::UnitY()));
  CHECK(without_equations(b.system(), {0})->num_multipliers() == 2);
}
