/// noether_composition_errors: the error and the Newton work of composition coefficients at equal
/// numbers of substeps (docs/performance.md, "Compositions"), the measurement behind the choice of
/// steppers/composition.hpp.
///
///   noether_composition_errors [--case MECHANISM:N]... [--steps N,N,...] [--bases livens-em,em-ggl]
///       [--reference-steps N]
///
/// For each case (a scenario with its parameter n, e.g. chain2d:100), each base stepper and each
/// coefficient set (the triple jump of order 4 and, composed twice, of order 6 [Yoshida1990];
/// Suzuki's of order 4 with 5 and with 7 substeps [Suzuki1990], a construction whose case of 3
/// substeps is the triple jump; Kahan and Li's of order 6 [KahanLi1997]; each also in pairs of
/// half-steps, steppers/composition.hpp), N composed steps of 1/N from the release to t = 1: the
/// error of the scenario's first probe at t = 1 against a reference (livens-em6 with
/// --reference-steps steps), the substeps taken, and the Newton iterations and factorizations per
/// substep. Prints a markdown table. Exit status 0, 1 on a failed run, or CLI11's nonzero code
/// (105 to 109) on a usage error.
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/composition.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "measurement_tables.hpp"

namespace {

using namespace noether;

using MakeStepper = decltype(StepperInfo::make);

struct CoefficientSet {
  std::string name;
  std::vector<double> gammas;
};

/// The triple jump composed twice, of order 6 with 9 substeps [Yoshida1990]: the order-4 triple
/// jump (Suzuki's construction with 3 substeps) as the base of a triple jump of gamma_1 =
/// 1/(2 - 2^(1/5)), gamma_2 = 1 - 2 gamma_1.
std::vector<double> triple_jump_6() {
  const double g1 = 1.0 / (2.0 - std::pow(2.0, 1.0 / 5.0)), g2 = 1.0 - 2.0 * g1;
  std::vector<double> gammas;
  for (double jump : {g1, g2, g1})
    for (double gamma : suzuki_coefficients(3)) gammas.push_back(jump * gamma);
  return gammas;
}

std::vector<CoefficientSet> coefficient_sets() {
  std::vector<CoefficientSet> sets{{"triple jump 4", suzuki_coefficients(3)},
                                   {"Suzuki 4", suzuki_coefficients(5)},
                                   {"Suzuki 4, 7 substeps", suzuki_coefficients(7)},
                                   {"triple jump 6", triple_jump_6()},
                                   {"Kahan-Li 6", kahan_li_coefficients()}};
  for (std::size_t k = 0, count = sets.size(); k < count; ++k)
    sets.push_back({sets[k].name + ", pairs", paired(sets[k].gammas)});
  return sets;
}

struct Outcome {
  Vector probe;
  long substeps = 0, iterations = 0, factorizations = 0;
};

Outcome integrate(const Model& model, const MakeStepper& make, long steps) {
  const std::unique_ptr<Stepper> stepper = make(*model.system, StepperOptions{});
  State state = model.initial;
  stepper->initialize(state);
  Outcome outcome;
  for (long k = 0; k < steps; ++k) {
    const StepReport report = stepper->step(state, 1.0 / static_cast<double>(steps));
    outcome.substeps += report.substeps;
    outcome.iterations += report.iterations;
    outcome.factorizations += report.factorizations;
  }
  outcome.probe = model.probes.front().position(state);
  return outcome;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> cases{"chain2d:100", "chain3d:100", "nfourbar:40"};
  std::vector<long> steps{16, 32, 64};
  std::vector<std::string> bases{"livens-em", "em-ggl"};
  long reference_steps = 512;
  CLI::App app{"Errors and Newton work of composition coefficients at equal numbers of substeps"};
  app.add_option("--case", cases, "SCENARIO:N, repeatable (a scenario with the parameter n)")->capture_default_str();
  app.add_option("--steps", steps, "composed steps over t = 1")->delimiter(',')->capture_default_str();
  app.add_option("--bases", bases, "base steppers (symmetric, order 2)")->delimiter(',')->capture_default_str();
  app.add_option("--reference-steps", reference_steps, "steps of livens-em6 for the reference")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  try {
    for (const std::string& text : cases) {
      const auto [name, n] = measurement::parse_name_and_number("--case", text);
      const Scenario& scenario = find_scenario(name);
      const Model model = scenario.build(resolve_parameters(scenario, {{"n", n}}));
      const Vector reference = integrate(model, find_stepper("livens-em6").make, reference_steps).probe;
      std::cout << "\n### " << text << " (probe " << model.probes.front().name << " at t = 1; reference livens-em6, "
                << reference_steps << " steps)\n\n| base | coefficients | steps | substeps | error | iterations "
                << "per substep | factorizations per substep |\n|---|---|---:|---:|---:|---:|---:|\n";
      for (const std::string& base : bases)
        for (const CoefficientSet& set : coefficient_sets())
          for (long n_steps : steps) {
            const MakeStepper make = [&](const System& system, const StepperOptions& options) -> std::unique_ptr<Stepper> {
              return std::make_unique<CompositionStepper>(base + " by " + set.name, system,
                                                          find_stepper(base).make(system, substep_options(options)),
                                                          set.gammas);
            };
            const Outcome o = integrate(model, make, n_steps);
            const auto per_substep = [&](long count) {
              return measurement::fixed(static_cast<double>(count) / static_cast<double>(o.substeps));
            };
            std::cout << "| " << base << " | " << set.name << " | " << n_steps << " | " << o.substeps << " | "
                      << measurement::scientific((o.probe - reference).norm()) << " | "
                      << per_substep(o.iterations) << " | " << per_substep(o.factorizations) << " |\n";
          }
    }
  } catch (const std::exception& e) {
    std::cerr << "noether_composition_errors: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
