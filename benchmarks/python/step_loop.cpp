/// noether_step_loop: the C++ side of benchmarks/python/overhead.py, the step loop a Python
/// program writes (Stepper.step in a for loop) written in C++: a scenario's model, a stepper of
/// the registry, initialize, then `steps` steps of h timed by the wall clock. Prints one line,
/// "<seconds> <q checksum>", so that the Python side can check it stepped the same motion.
///
///   build/bin/noether_step_loop chain2d 1000 livens-em 0.01 200
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

int main(int argc, char** argv) {
  using namespace noether;
  if (argc != 6) {
    std::fprintf(stderr, "usage: noether_step_loop SCENARIO N STEPPER H STEPS\n");
    return 2;
  }
  try {
    const Scenario& scenario = find_scenario(argv[1]);
    const Model model = scenario.build(resolve_parameters(scenario, {{"n", std::stod(argv[2])}}));
    const std::unique_ptr<Stepper> stepper = find_stepper(argv[3]).make(*model.system, StepperOptions{});
    const double h = std::stod(argv[4]);
    const long steps = std::stol(argv[5]);
    State state = model.initial;
    stepper->initialize(state);
    const auto start = std::chrono::steady_clock::now();
    for (long k = 0; k < steps; ++k) stepper->step(state, h);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::printf("%.9f %.17g\n", seconds.count(), state.q.sum());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "noether_step_loop: %s\n", e.what());
    return 1;
  }
}
