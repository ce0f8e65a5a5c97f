/// noether_parts_stepping: a scenario stepped over the processes' parts of its model, each
/// process holding its part alone (StepperOptions::part; docs/distributed.md, "The partitioned
/// model", stage 3), against the whole model in one process; a measurement program, not a test.
///
///   mpirun -np P noether_parts_stepping [--scenario NAME] [--set KEY=VALUE ...] [--stepper NAME] [--solver NAME] [--h H] [--steps K]
///
/// One process steps the whole model, several their parts, with the solver named (schur: in one
/// process KLU on all of it; mumps; auto). Each process prints its setup seconds (the description, its part and the
/// stepper with its first analysis: everything before the first step), seconds per step over K
/// steps with their assembly, factorization and solve shares (StepReport::timings), and its peak
/// resident memory (VmHWM).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/distributed/mpi_distribution.hpp>
#include <noether/engine/partition.hpp>
#include <noether/engine/system_part.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "process_memory.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace noether;
  std::string scenario = "chain3d", stepper_name = "livens-em", solver = "schur";
  std::vector<std::string> settings{"n=100000"};
  double h = 1e-3;
  int steps = 3;
  CLI::App app{"A scenario stepped over the processes' parts of its model"};
  app.add_option("--scenario", scenario, "a scenario")->capture_default_str();
  app.add_option("--set", settings, "its parameters, KEY=VALUE each (the default: n=100000)");
  app.add_option("--stepper", stepper_name, "the scheme")->capture_default_str();
  app.add_option("--solver", solver, "the linear solver: schur, mumps or auto")->capture_default_str();
  app.add_option("--h", h, "the step")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--steps", steps, "steps timed")->check(CLI::PositiveNumber)->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const std::shared_ptr<MpiDistribution> world = MpiDistribution::world();
  try {
    const auto start = std::chrono::steady_clock::now();
    const Scenario& s = find_scenario(scenario);
    ParameterValues values;
    for (const std::string& setting : settings) {
      const auto equals = setting.find('=');
      if (equals == std::string::npos) throw std::invalid_argument("--set takes KEY=VALUE, got " + setting);
      values[setting.substr(0, equals)] = parse_parameter_value(s, setting.substr(0, equals), setting.substr(equals + 1));
    }
    const ModelDescription description = s.describe(resolve_parameters(s, values));
    const std::vector<int> processes = block_processes(description_coupling(description), world->ranks());
    const ModelPart part = build_model_part(description, processes, world->rank());
    StepperOptions options;
    const std::optional<LinearSolverKind> kind = parse_linear_solver_kind(solver);
    if (!kind) throw std::invalid_argument("--solver: no linear solver " + solver);
    options.solver = *kind;
    options.redundant_equations = StepperOptions::RedundantEquations::allow;
    if (world->ranks() > 1) {
      options.distribution = world;
      options.part = std::make_shared<const SystemPart>(system_part(*world, part, processes));
    }
    const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*part.system, options);
    State state = part.initial;
    stepper->initialize(state);
    const double setup = seconds_since(start);
    const auto stepping = std::chrono::steady_clock::now();
    int iterations = 0;
    NewtonTimings phases;
    for (int k = 0; k < steps; ++k) {
      const StepReport report = stepper->step(state, h);
      iterations += report.iterations;
      phases.assembly += report.timings.assembly;
      phases.factorization += report.timings.factorization;
      phases.solve += report.timings.solve;
    }
    const double per_step = seconds_since(stepping) / steps;
    std::printf("%s, %s, %s, process %d of %d: setup %.2f s, %.3f s per step (assembly %.3f, factorization %.3f, "
                "solve %.3f; %d Newton iterations), peak %.0f MB\n",
                scenario.c_str(), stepper_name.c_str(), solver.c_str(), world->rank(), world->ranks(), setup, per_step,
                phases.assembly / steps, phases.factorization / steps, phases.solve / steps, iterations,
                static_cast<double>(bench::read_process_memory().peak_bytes) / 1e6);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "noether_parts_stepping: process " << world->rank() << ": " << e.what() << '\n';
    world->abort(1);
  }
}
