/// The rule for initial values (solvers/initial_values.hpp), on these cases:
/// positions off the constraints by 1e-3 and by 1, non-orthonormal directors, velocities violating
/// G v = 0 by 3. Every stepper refuses them at initialize, naming the equation and its residual;
/// project_initial_state moves them onto the constraints and reports the correction; a state on the
/// constraints is left bitwise as it was.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/engine/measures.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

Model double_fourbar() {
  const Scenario& scenario = find_scenario("double-fourbar");
  return scenario.build(resolve_parameters(scenario, {}));
}

Index coordinate(const System& system, const std::string& label) {
  for (Index i = 0; i < system.num_coordinates(); ++i)
    if (system.coordinate_label(i) == label) return i;
  FAIL("no coordinate " << label);
  return -1;
}

double largest(const System& system, const State& s, bool velocities) {
  Vector r(system.num_multipliers());
  if (velocities) calc_velocity_constraint_values(system, s.q, s.v, r);
  else calc_constraint_values(system, s.q, r);
  return max_abs(r);
}

bool bitwise_equal(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

struct Case {
  std::string what;
  const char* coordinate;  ///< the entry changed
  double change;
  bool velocity;
  const char* element;  ///< the constraint initialize names
  const char* refusal;  ///< what it says
};

/// B2's d2 enters no joint (they hold points on d1), so a wrong d2 violates only B2's orthonormality.
const Case kCases[] = {
    {"positions off by 1e-3", "B4.phi.x", 1e-3, false, "P4", "the initial positions are off the constraints: constraint 'P4' row 0 has |g| = 0.001"},
    {"positions off by 1", "B4.phi.x", 1.0, false, "P4", "the initial positions are off the constraints: constraint 'P4' row 0 has |g| = 1"},
    {"non-orthonormal directors", "B2.d2.x", 0.01, false, "B2.orthonormality",
     "the initial positions are off the constraints: constraint 'B2.orthonormality' row "},
    {"velocities violating G v = 0 by 3", "B4.phi.x", 3.0, true, "P4",
     "the initial velocities are off the constraints: constraint 'P4' row 0 has |G v| = 3"},
};

}  // namespace

TEST_CASE("every stepper refuses initial values off the constraints, naming the equation and its residual") {
  const Model model = double_fourbar();
  for (const Case& c : kCases) {
    CAPTURE(c.what);
    State state = model.initial;
    (c.velocity ? state.v : state.q)(coordinate(*model.system, c.coordinate)) += c.change;
    for (const StepperInfo& info : steppers()) {
      CAPTURE(info.name);
      const auto stepper = info.make(*model.system, StepperOptions{});
      State copy = state;
      CHECK_THROWS_WITH_AS(stepper->initialize(copy), doctest::Contains((info.name + ": " + c.refusal).c_str()),
                           InconsistentInitialValues);
    }
  }
}

TEST_CASE("project_initial_state moves them onto the constraints and reports the correction, then every stepper starts") {
  const Model model = double_fourbar();
  const System& system = *model.system;
  for (const Case& c : kCases) {
    CAPTURE(c.what);
    State state = model.initial;
    (c.velocity ? state.v : state.q)(coordinate(system, c.coordinate)) += c.change;
    const InitialProjection p = project_initial_state(system, state);
    const std::string note = describe(system, p);
    MESSAGE(c.what, ": ", note);
    CHECK(p.projected());
    if (c.velocity) {
      CHECK(p.positions.row < 0);
      CHECK(p.position_correction == 0.0);
      CHECK(p.velocities.residual == doctest::Approx(c.change));
      CHECK(p.velocity_correction > 0.1 * c.change);
    } else {
      CHECK(system.multiplier_label(p.positions.row).find(std::string("constraint '") + c.element + "'") == 0);
      CHECK(p.position_correction > 0.1 * c.change);
      CHECK(p.position_correction < 2.0 * c.change);
      CHECK(note.find("projected onto the constraints, max |dq| = ") != std::string::npos);
    }
    CHECK(largest(system, state, false) <= 1e-12);
    CHECK(largest(system, state, true) <= 1e-12);
    for (const StepperInfo& info : steppers()) {
      State copy = state;
      CHECK_NOTHROW(info.make(system, StepperOptions{})->initialize(copy));
    }
  }
}

TEST_CASE("initial values on the constraints are left bitwise as they were, for every scenario") {
  for (const Scenario& scenario : scenarios()) {
    CAPTURE(scenario.name);
    const Model model = scenario.build(resolve_parameters(scenario, {}));
    if (scenario.name == "bricard") continue;  // its redundant equation makes G G^T singular: the runner drops it first
    State state = model.initial;
    const InitialProjection p = project_initial_state(*model.system, state);
    CHECK_FALSE(p.projected());
    CHECK(bitwise_equal(state.q, model.initial.q));
    CHECK(bitwise_equal(state.v, model.initial.v));
  }
}

TEST_CASE("the rule scales with the terms of each row: a chain far from the origin passes, a small mismatch does not") {
  const Scenario& chain = find_scenario("chain2d");
  const Model model = chain.build(resolve_parameters(chain, {{"n", 3}}));
  State far = model.initial;
  for (Index i = 0; i < far.q.size(); i += 6) far.q(i) += 1e6;  // every bar's phi.x moved by 10^6 m ...
  // ... with the ground pivot: only "pivot" is violated, by exactly 10^6.
  const ConstraintViolation v = position_violation(*model.system, far.q);
  CHECK(model.system->multiplier_label(v.row) == "constraint 'pivot' row 0");
  CHECK(v.residual == 1e6);
  State off = model.initial;
  off.q(0) += 1e-6;  // bar0.phi.x
  CHECK(position_violation(*model.system, off.q).row >= 0);
  off.q(0) = model.initial.q(0) + 1e-12;  // round-off of a typed value
  CHECK(position_violation(*model.system, off.q).row < 0);
}

TEST_CASE("a constraint that is not finite at the initial values is refused as such, not sent to the projection") {
  // The reliability table's api/function_constraint_nan: "|g| = nan ...; project them first with
  // project_initial_state", which cannot mend a NaN.
  System system;
  const BlockId p = system.add_block("p", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("mass", std::vector{p}, Matrix::Identity(2, 2)));
  ConstraintFunction f;
  f.value = [](ConstVectorRef) { return Vector::Constant(1, std::numeric_limits<double>::quiet_NaN()); };
  f.jacobian = [](ConstVectorRef q) { return Matrix(q.transpose()); };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef l) { return Matrix(l(0) * Matrix::Identity(2, 2)); };
  system.add(std::make_shared<FunctionConstraint>("circle", std::vector{p}, 2, f));
  const State state{.q = Vector::Unit(2, 0), .v = Vector::Unit(2, 1)};
  CHECK_THROWS_WITH_AS(require_consistent_initial_values(system, state, "livens-em"),
                       "livens-em: the initial positions are off the constraints: constraint 'circle' row 0 has |g| = "
                       "nan (round-off allows 1.0001e-10); a residual that is not finite at finite initial values is a "
                       "fault of the constraint's functions (or of values of an absurd size), which no projection mends",
                       InconsistentInitialValues);
}
