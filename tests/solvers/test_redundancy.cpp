/// Dependent constraint equations found by the rank-revealing QR of G^T (solvers/redundancy.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include <noether/apps/runner.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/joints/revolute.hpp>
#include <noether/joints/revolute_planar.hpp>
#include <noether/joints/spherical.hpp>
#include <noether/solvers/redundancy.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

Model model_of(const std::string& name) {
  const Scenario& scenario = find_scenario(name);
  return scenario.build(resolve_parameters(scenario, {}));
}

/// A parallelogram four-bar (ground pivots (0, 0) and (1, 0), bars of length 1) with its cranks
/// at angle `angle` from +x: flat, and singular, at angle 0, where the coupler lies on the ground line.
Mechanism four_bar(double angle) {
  Mechanism m;
  const PlanarBodyProperties bar{1.0, Eigen::Vector2d::Zero(), 1.0 / 12.0};
  const double c = std::cos(angle), s = std::sin(angle);
  const BodyRef left = m.add_planar_body("left", bar, {0.5 * c, 0.5 * s, angle});
  const BodyRef right = m.add_planar_body("right", bar, {1.0 + 0.5 * c, 0.5 * s, angle});
  const BodyRef coupler = m.add_planar_body("coupler", bar, {c + 0.5, s, 0.0});
  const Vector start = Vector(Eigen::Vector2d(-0.5, 0)), end = Vector(Eigen::Vector2d(0.5, 0));
  m.add(make_revolute_planar_to_ground("P1", Vector(Eigen::Vector2d(0, 0)), left, start));
  m.add(make_revolute_planar_to_ground("P2", Vector(Eigen::Vector2d(1, 0)), right, start));
  m.add(make_revolute_planar("A", left, end, coupler, start));
  m.add(make_revolute_planar("B", right, end, coupler, end));
  return m;
}

}  // namespace

TEST_CASE("the Bricard linkage has one dependent equation, named with the rows it depends on") {
  const Model model = model_of("bricard");
  const ConstraintRank rank = constraint_rank(*model.system, model.initial.q);
  CHECK(rank.equations == 60);  // 5 x 6 orthonormality + 6 x 5 revolute
  CHECK(rank.rank == 59);       // one degree of freedom where Gruebler's count gives none
  REQUIRE(rank.dependent.size() == 1);
  const std::string text = describe_dependency(*model.system, rank.dependent.front());
  MESSAGE(text);
  CHECK(text.find("constraint 'J") == 0);  // a joint's axis or point equation, not a body's rigidity
  CHECK(text.find(" depends on constraint '") != std::string::npos);
}

TEST_CASE("the double four-bar away from its singular configurations has full rank") {
  const Model model = model_of("double-fourbar");
  const ConstraintRank rank = constraint_rank(*model.system, model.initial.q);
  CHECK(rank.rank == rank.equations);
  CHECK(rank.dependent.empty());
}

TEST_CASE("a duplicated joint: its three rows depend on the rows of the joint it repeats") {
  Mechanism mechanism;
  const RigidBodyProperties bar{1.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(0.01, 0.1, 0.1).asDiagonal()};
  const BodyRef a = mechanism.add_rigid_body("a", bar, {Eigen::Vector3d(0.5, 0, 0)});
  const BodyRef b = mechanism.add_rigid_body("b", bar, {Eigen::Vector3d(1.5, 0, 0)});
  const Vector right = Vector(Eigen::Vector3d(0.5, 0, 0)), left = Vector(Eigen::Vector3d(-0.5, 0, 0));
  mechanism.add(make_spherical("ball", a, right, b, left));
  mechanism.add(make_spherical("ball again", a, right, b, left));
  const ConstraintRank rank = constraint_rank(mechanism.system(), mechanism.initial_state().q);
  CHECK(rank.equations == 2 * 6 + 2 * 3);
  CHECK(rank.rank == rank.equations - 3);
  REQUIRE(rank.dependent.size() == 3);
  for (const DependentEquation& e : rank.dependent) {
    const std::string text = describe_dependency(mechanism.system(), e);
    MESSAGE(text);
    CHECK(text.find("constraint 'ball") == 0);
    CHECK(text.find("depends on constraint 'ball") != std::string::npos);
  }
}

TEST_CASE("a four-bar passing its flat position loses rank only there: its equations are kept") {
  const Mechanism flat = four_bar(0.0), tilted = four_bar(0.3);
  const ConstraintRank at_flat = constraint_rank(flat.system(), flat.initial_state().q);
  CHECK(at_flat.dependent.size() == 1);  // instantaneous: the cranks and the coupler are collinear
  CHECK(constraint_rank(tilted.system(), tilted.initial_state().q).dependent.empty());
  CHECK(structural_redundancy(flat.system(), flat.initial_state().q).dependent.empty());
  const std::string rank_loss = describe_rank_loss(flat.system(), flat.initial_state().q);
  MESSAGE(rank_loss);
  CHECK(rank_loss.find("the constraint Jacobian is (nearly) rank deficient (rank ") == 0);
  CHECK(rank_loss.find("constraint '") != std::string::npos);
  CHECK(describe_rank_loss(tilted.system(), tilted.initial_state().q).empty());
}

TEST_CASE("the Bricard linkage is structurally redundant: one equation is dropped, the rest keep a full rank") {
  const Model model = model_of("bricard");
  const ConstraintRank structural = structural_redundancy(*model.system, model.initial.q);
  REQUIRE(structural.dependent.size() == 1);
  const auto reduced = without_equations(*model.system, {structural.dependent.front().row});
  CHECK(reduced->num_multipliers() == model.system->num_multipliers() - 1);
  CHECK(reduced->num_coordinates() == model.system->num_coordinates());
  const ConstraintRank rank = constraint_rank(*reduced, model.initial.q);
  CHECK(rank.rank == rank.equations);
}

TEST_CASE("a door on two hinges of one axis: five equations dropped, two rows of one joint among them") {
  Mechanism mechanism;
  const RigidBodyProperties door{20.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(6.7, 7.7, 1.1).asDiagonal()};
  const BodyRef body = mechanism.add_rigid_body("door", door, {Eigen::Vector3d(0.4, 0, 1)});
  const Vector axis = Vector(Eigen::Vector3d(0, 0, 1));
  mechanism.add(make_revolute_to_ground("lower hinge", Vector(Eigen::Vector3d(0, 0, 0.2)), axis, body,
                                        Vector(Eigen::Vector3d(-0.4, 0, -0.8)), axis));
  mechanism.add(make_revolute_to_ground("upper hinge", Vector(Eigen::Vector3d(0, 0, 1.8)), axis, body,
                                        Vector(Eigen::Vector3d(-0.4, 0, 0.8)), axis));
  const Vector q = mechanism.initial_state().q;
  const ConstraintRank structural = structural_redundancy(mechanism.system(), q);
  std::vector<Index> rows;
  for (const DependentEquation& e : structural.dependent) rows.push_back(e.row);
  REQUIRE(rows.size() == 5);  // 6 + 2 * 5 equations on 12 coordinates, 1 degree of freedom left
  const auto reduced = without_equations(mechanism.system(), rows);
  CHECK(reduced->num_multipliers() == mechanism.system().num_multipliers() - 5);
  const ConstraintRank rank = constraint_rank(*reduced, q);
  CHECK(rank.rank == rank.equations);
  int several = 0;  // a constraint that lost more than one row (its name lists them, without commas)
  for (const Placed<Constraint>& c : reduced->constraints())
    if (c.element->name().find(" without rows ") != std::string::npos) ++several;
  CHECK(several >= 1);
}

TEST_CASE("bricard runs 10 s with livens-em and em-ggl: energy conserved, the dropped equation named and monitored") {
  for (const char* stepper : {"livens-em", "em-ggl"}) {
    CAPTURE(stepper);
    RunOptions options;
    options.scenario = "bricard";
    options.configure().stepper = stepper;
    options.threads = 1;
    const RunOutcome result = run(options);
    CHECK(result.ok());
    CHECK(result.statistics.steps == 1000);
    REQUIRE(result.dropped_equations.size() == 1);
    MESSAGE(result.dropped_equations.front());
    CHECK(result.dropped_equations.front().find("constraint 'J") == 0);
    // Newton tolerance 1e-10 on the momentum balance; measured 1.4e-14 (rounding) of |E| = 29.4.
    CHECK(result.statistics.energy_max_abs_increment <= 1e-10);
    CHECK(result.statistics.constraint_max_abs <= 1e-10);  // every equation, the dropped one included
  }
}

TEST_CASE("--redundant refuse: a structurally redundant mechanism is refused, naming the dependency") {
  RunOptions options;
  options.scenario = "bricard";
  options.configure().redundancy = RunConfiguration::Redundancy::refuse;
  options.threads = 1;
  const RunOutcome result = run(options);
  CHECK_FALSE(result.ok());
  CHECK(result.ending.error.find("1 constraint equation depends on the others along the motion: constraint 'J") == 0);
  CHECK(result.ending.error.find(". Run with --redundant drop (the default), which drops it from the step equations") !=
        std::string::npos);
  CHECK(result.statistics.steps == 0);
}

TEST_CASE("a Bricard linkage stepped through the API is refused at initialize, naming its redundant row and the calls "
          "that drop it") {
  const Model model = model_of("bricard");
  const ConstraintRank structural = structural_redundancy(*model.system, model.initial.q);
  REQUIRE(structural.dependent.size() == 1);
  const std::string row = describe_dependency(*model.system, structural.dependent.front());
  for (const char* name : {"livens-em", "em-ggl", "livens-em4"}) {
    CAPTURE(name);
    const std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model.system, StepperOptions{});
    State state = model.initial;
    try {
      stepper->initialize(state);
      FAIL("initialize accepted a structurally redundant system");
    } catch (const StepperRefusal& refusal) {
      const std::string message = refusal.what();
      CAPTURE(message);
      CHECK(message.starts_with(std::string(name) + ": 1 constraint equation depends on the others along the motion: " + row +
                                ". Every step's Newton matrix would be singular: drop it with structural_redundancy and "
                                "without_equations (<noether/solvers/redundancy.hpp>)"));
      CHECK(message.find("RedundantEquations::allow") != std::string::npos);
    }
    CHECK(state.p.size() == 0);  // the refused state is left as it was
  }
  // Dropped, the row is gone and the stepper starts; allowed, the system is stepped as it is.
  const std::unique_ptr<System> reduced = without_equations(*model.system, {structural.dependent.front().row});
  State state = model.initial;
  find_stepper("livens-em").make(*reduced, StepperOptions{})->initialize(state);
  CHECK(state.lambda.size() == model.system->num_multipliers() - 1);
  StepperOptions allow;
  allow.redundant_equations = StepperOptions::RedundantEquations::allow;
  state = model.initial;
  find_stepper("livens-em").make(*model.system, allow)->initialize(state);
  CHECK(state.lambda.size() == model.system->num_multipliers());
}

TEST_CASE("a four-bar at its flat position is not refused at initialize: its rank loss is instantaneous") {
  const Mechanism flat = four_bar(0.0);
  State state = flat.initial_state();
  find_stepper("livens-em").make(flat.system(), StepperOptions{})->initialize(state);
  CHECK(state.p.size() == flat.system().num_coordinates());
}
