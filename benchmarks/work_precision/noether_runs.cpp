#include "noether_runs.hpp"

#include <exception>
#include <memory>
#include <stdexcept>
#include <vector>

#include <noether/steppers/stepper_registry.hpp>

#include "comparison_case.hpp"

namespace noether::work_precision {

IntegrationRun run_noether(const Model& model, const std::string& stepper_name, long steps, double t_end, int samples,
                           double time_limit, TimeMeasure measure) {
  if (samples < 1 || steps % samples != 0)
    throw std::invalid_argument("run_noether: the steps must be a multiple of the samples");
  IntegrationRun run;
  std::vector<State> sampled;
  sampled.reserve(static_cast<std::size_t>(samples));
  const double h = t_end / static_cast<double>(steps);
  const RunClock clock(measure);
  const auto elapsed = [&clock] { return clock.elapsed(); };
  try {
    const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, StepperOptions{});
    State state = model.initial;
    stepper->initialize(state);
    run.setup_seconds = elapsed();
    for (long k = 1; k <= steps; ++k) {
      const StepReport report = stepper->step(state, h);
      run.retries += report.refinements;
      run.stalled_steps += report.stalled_residual > 0.0;
      ++run.steps;
      if (k * samples % steps == 0) sampled.push_back(state);
      if (elapsed() > time_limit) {
        run.failure = abandoned_message(time_limit, state.t);
        run.timed_out = true;
        break;
      }
    }
  } catch (const std::exception& e) {
    run.failure = e.what();
  }
  run.seconds = elapsed();
  for (const State& state : sampled) run.probe.push_back(probe_position(model, state));
  return run;
}

}  // namespace noether::work_precision
