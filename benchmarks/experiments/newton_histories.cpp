/// noether_newton_histories: the Newton history of every step of a scenario, to see where a
/// larger model takes more iterations (docs/performance.md, "Setup against a step on this
/// machine": chain2d em-ggl at n = 10^4 and 8 x 10^4); a measurement program, not a test.
///
///   noether_newton_histories [--case SCENARIO:N] [--stepper NAME] [--h H] [--steps K]
///
/// K steps of h from the scenario's initial state, with the run's default Newton options, on one
/// thread. One line per step: its iterations, factorizations and matrix evaluations, then the
/// scaled residual r of each iterate (NewtonIterate::scaled_residual), "c" after one reached by a
/// chord step (with an earlier factorization), and a last line of totals. Exit status 0, 1 on an
/// error, CLI11's nonzero code on a usage error.
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "measurement_tables.hpp"

int main(int argc, char** argv) {
  using namespace noether;
  std::string case_text = "chain2d:10000", stepper_name = "em-ggl";
  double h = 1e-3;
  int steps = 30;
  CLI::App app{"The Newton history of every step of a scenario"};
  app.add_option("--case", case_text, "SCENARIO:N, the scenario and its n")->capture_default_str();
  app.add_option("--stepper", stepper_name, "the scheme")->capture_default_str();
  app.add_option("--h", h, "the step")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--steps", steps, "steps")->check(CLI::PositiveNumber)->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  try {
    const auto [name, n] = measurement::parse_name_and_number("--case", case_text);
    const Scenario& scenario = find_scenario(name);
    const Model model = scenario.build(resolve_parameters(scenario, {{"n", n}}));
    const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, StepperOptions{});
    State state = model.initial;
    stepper->initialize(state);
    long iterations = 0, factorizations = 0, matrix_evaluations = 0;
    for (int k = 0; k < steps; ++k) {
      const StepReport report = stepper->step(state, h);
      std::cout << "step " << k << ": " << report.iterations << " iterations, " << report.factorizations
                << " factorizations, " << report.matrix_evaluations << " matrices; r:";
      for (const NewtonIterate& iterate : report.history)
        std::cout << ' ' << measurement::scientific(iterate.scaled_residual) << (iterate.chord ? "c" : "");
      std::cout << '\n';
      iterations += report.iterations;
      factorizations += report.factorizations;
      matrix_evaluations += report.matrix_evaluations;
    }
    std::cout << "total: " << iterations << " iterations, " << factorizations << " factorizations, "
              << matrix_evaluations << " matrices in " << steps << " steps\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "noether_newton_histories: " << e.what() << '\n';
    return 1;
  }
}
