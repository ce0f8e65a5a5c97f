// A stepper over the processes' parts of a model (StepperOptions::part) steps the whole model's
// motion: each process holds its part's state alone, the rows its ghosts share are summed after
// each assembly, Newton's norms are maxima over the processes and schur solves over the parts
// (docs/distributed.md, "Stage 3"). The reference is the whole model stepped in one process;
// the factorizations' orders differ between the two (the interiors are numbered by the parts,
// S by global numbers), so the states agree to rounding, not to the bit.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/ghost_exchange.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/partition.hpp>
#include <noether/engine/system_part.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "mpi/mpi_world.hpp"

using namespace noether;

namespace {

constexpr int kSteps = 12;

StepperOptions part_options(std::shared_ptr<const SystemPart> part,
                            LinearSolverKind solver = LinearSolverKind::schur) {
  StepperOptions options;
  options.solver = solver;
  options.redundant_equations = StepperOptions::RedundantEquations::allow;
  options.distribution = testing::world_slot();
  options.part = std::move(part);
  return options;
}

/// A scenario's description and this process's part of its model, with how the part sits in the whole.
struct Parts {
  ModelDescription description;
  ModelPart part;
  std::shared_ptr<const SystemPart> numbering;
};
Parts parts_of(const char* scenario, const ParameterValues& values) {
  const Scenario& s = find_scenario(scenario);
  Parts out{s.describe(resolve_parameters(s, values)), {}, nullptr};
  const std::vector<int> processes = block_processes(description_coupling(out.description), testing::world().ranks());
  out.part = build_model_part(out.description, processes, testing::world().rank());
  out.numbering = std::make_shared<const SystemPart>(system_part(testing::world(), out.part, processes));
  return out;
}

/// The largest |a_i - b_i| over the processes.
double largest_over_processes(double value) {
  testing::world().max({&value, 1});
  return value;
}

void check_stepping(const char* scenario, ParameterValues values, const char* stepper_name, double h,
                    LinearSolverKind solver = LinearSolverKind::schur) {
  CAPTURE(scenario);
  CAPTURE(stepper_name);
  const std::string solver_name(to_string(solver));
  CAPTURE(solver_name);
  const auto [description, part, numbering] = parts_of(scenario, values);
  const StepperInfo& info = find_stepper(stepper_name);

  const Model whole = build_model(description);
  StepperOptions whole_options;
  whole_options.redundant_equations = StepperOptions::RedundantEquations::allow;
  const std::unique_ptr<Stepper> whole_stepper = info.make(*whole.system, whole_options);
  State reference = whole.initial;
  whole_stepper->initialize(reference);

  const std::vector<Index>& global = numbering->coordinate_numbers;
  const GhostExchange ghosts(testing::world(), global, numbering->coordinate_owners);
  const std::unique_ptr<Stepper> stepper = info.make(*part.system, part_options(numbering, solver));
  State state = part.initial;
  stepper->initialize(state);

  int whole_iterations = 0, part_iterations = 0;
  double whole_work = 0.0, part_work = 0.0;
  for (int k = 0; k < kSteps; ++k) {
    const StepReport whole_step = whole_stepper->step(reference, h), part_step = stepper->step(state, h);
    whole_iterations += whole_step.iterations;
    part_iterations += part_step.iterations;
    whole_work += whole_step.work;
    part_work += part_step.work;
  }
  CHECK(part_iterations == whole_iterations);
  CHECK(std::abs(part_work - whole_work) <= 1e-12 * (1.0 + std::abs(whole_work)));  // the parts' work summed

  double q_error = 0.0, v_error = 0.0;
  for (Index i = 0; i < part.system->num_coordinates(); ++i) {
    const Index g = global[static_cast<std::size_t>(i)];
    q_error = std::max(q_error, std::abs(state.q(i) - reference.q(g)));
    v_error = std::max(v_error, std::abs(state.v(i) - reference.v(g)));
  }
  // Rounding alone: 1e-16 to 7e-17 in q and 1e-15 to 3e-15 in v here (q ~ 1, v's rounding grows as
  // 1/h), with a margin of a thousand.
  CHECK(largest_over_processes(q_error) <= 1e-13);
  CHECK(largest_over_processes(v_error) <= 1e-11);

  std::map<std::string, Index> whole_rows;
  for (const auto& c : whole.system->constraints()) whole_rows[c.element->name()] = c.first_multiplier;
  double lambda_error = 0.0, lambda_size = 0.0;
  for (const auto& c : part.system->constraints())
    for (Index r = 0; r < c.element->num_equations(); ++r) {
      const double expected = reference.lambda(whole_rows.at(c.element->name()) + r);
      lambda_error = std::max(lambda_error, std::abs(state.lambda(c.first_multiplier + r) - expected));
      lambda_size = std::max(lambda_size, std::abs(expected));
    }
  CHECK(largest_over_processes(lambda_error) <= 1e-11 * (1.0 + largest_over_processes(lambda_size)));

  // Every ghost holds its owner's value, to the bit: both come from the same interface solve.
  Vector q = state.q, v = state.v;
  ghosts.update_ghosts(q);
  ghosts.update_ghosts(v);
  CHECK(largest_over_processes((q - state.q).cwiseAbs().maxCoeff()) == 0.0);
  CHECK(largest_over_processes((v - state.v).cwiseAbs().maxCoeff()) == 0.0);

  std::vector<double> energy{kinetic_energy(*part.system, state.q, state.v) + potential_energy(*part.system, state.q)};
  testing::world().sum(energy);
  const double expected = kinetic_energy(*whole.system, reference.q, reference.v) +
                          potential_energy(*whole.system, reference.q);
  CHECK(std::abs(energy[0] - expected) <= 1e-10 * (1.0 + std::abs(expected)));
  const double scheme_energy = whole_stepper->conserved_energy(reference);  // the stepper sums its parts'
  CHECK(std::abs(stepper->conserved_energy(state) - scheme_energy) <= 1e-12 * (1.0 + std::abs(scheme_energy)));
}

}  // namespace

TEST_CASE("stepping over parts: the processes' parts step the whole model's motion") {
  for (const char* stepper : {"livens-em", "em-ggl"}) {
    check_stepping("chain3d", {{"n", 12}}, stepper, 1e-2);
    check_stepping("chain2d", {{"n", 15}}, stepper, 1e-2);
    check_stepping("nfourbar", {{"n", 6}}, stepper, 1e-2);
    check_stepping("double-fourbar", {{"damping", 0.5}}, stepper, 1e-3);  // dampers: the work summed
  }
}

TEST_CASE("stepping over parts: every stepper with a fixed step steps a chain's parts as the whole model") {
  for (const StepperInfo& info : steppers()) {
    if (info.adaptive_step_size) continue;  // sem-vi: its step size is a global unknown, refused over parts
    check_stepping("chain3d", {{"n", 8}}, info.name.c_str(), 1e-2);
  }
}

TEST_CASE("stepping over parts: mumps takes the parts' rows by their global numbers") {
  if (!linear_solver_built(LinearSolverKind::mumps)) return;  // a build without PETSc
  for (const char* stepper : {"livens-em", "em-ggl"}) {
    check_stepping("grid2d", {{"k", 4}}, stepper, 1e-2, LinearSolverKind::mumps);
    check_stepping("chain3d", {{"n", 12}}, stepper, 1e-2, LinearSolverKind::mumps);
  }
  // auto over parts: every process makes the same choice (make_linear_solver sums the interfaces)
  check_stepping("grid2d", {{"k", 8}}, "livens-em", 1e-2, LinearSolverKind::automatic);
}

TEST_CASE("stepping over parts: a failed step is the same error on every process") {
  const auto [description, part, numbering] = parts_of("chain3d", {{"n", 12}});
  StepperOptions options = part_options(numbering);
  options.newton.max_iterations = 1;  // no step of h = 0.05 converges in one iteration
  options.max_refinement_depth = 0;
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*part.system, options);
  State state = part.initial;
  stepper->initialize(state);
  std::string message;
  try {
    stepper->step(state, 0.05);
  } catch (const NewtonError& e) {
    message = e.what();
  }
  CAPTURE(message);
  CHECK(message.find("no convergence in 1 iterations") != std::string::npos);
  CHECK(message.find("largest scaled residual entry") != std::string::npos);  // the worst row of all processes
  CHECK(text_of_process(testing::world(), 0, message) == message);            // rank 0's words on every process
}

TEST_CASE("stepping over parts: initial values off the constraints in one part are refused on every process") {
  const auto [description, part, numbering] = parts_of("chain2d", {{"n", 6}});
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*part.system, part_options(numbering));
  State state = part.initial;
  const int last = testing::world().ranks() - 1;
  const std::vector<int>& owners = numbering->coordinate_owners;
  if (testing::world().rank() == last) state.q(std::ranges::find(owners, last) - owners.begin()) += 1e-3;
  const std::string refused = "process " + std::to_string(last) + " refused";
  if (testing::world().rank() == last)
    CHECK_THROWS_AS(stepper->initialize(state), InconsistentInitialValues);
  else
    CHECK_THROWS_WITH_AS(stepper->initialize(state), doctest::Contains(refused.c_str()), StepperRefusal);
}

TEST_CASE("stepping over parts: a part without coordinates is refused on every process") {
  // top: one body, so every process but one holds an empty part.
  const auto [description, part, numbering] = parts_of("top", {});
  if (part.system->num_coordinates() == 0)
    CHECK_THROWS_WITH_AS(find_stepper("livens-em").make(*part.system, part_options(numbering)),
                         doctest::Contains("the system has no coordinates"), StepperRefusal);
  else
    CHECK_THROWS_WITH_AS(find_stepper("livens-em").make(*part.system, part_options(numbering)),
                         doctest::Contains("refused its part of the system: livens-em: the system has no coordinates"),
                         StepperRefusal);
}

TEST_CASE("stepping over parts: what a part cannot do is refused on every process") {
  const auto [description, part, numbering] = parts_of("chain2d", {{"n", 6}});
  StepperOptions options = part_options(numbering);
  options.solver = LinearSolverKind::klu;
  CHECK_THROWS_WITH_AS(find_stepper("livens-em").make(*part.system, options),
                       doctest::Contains("factors in one process"), std::invalid_argument);
  options = part_options(numbering);
  options.redundant_equations = StepperOptions::RedundantEquations::refuse;
  CHECK_THROWS_WITH_AS(find_stepper("livens-em").make(*part.system, options), doctest::Contains("redundancy check"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(find_stepper("sem-vi").make(*part.system, part_options(numbering)),
                       doctest::Contains("global unknown"), std::invalid_argument);
}
