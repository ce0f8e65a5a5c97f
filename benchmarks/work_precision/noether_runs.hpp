#pragma once
/// One timed integration of a comparison case by a Noether stepper.
#include <string>

#include <noether/apps/scenarios/scenario.hpp>

#include "integration_run.hpp"

namespace noether::work_precision {

/// Constructs the registry's stepper `stepper` with the default StepperOptions on the model's
/// system, initializes the release state and takes `steps` steps of t_end/steps, recording the
/// model's first probe at t_end k/samples, k = 1 .. samples (`steps` a multiple of `samples`).
/// Timed: all of it (stepper construction with its pattern analysis, initialize, the steps); not
/// timed: building the model, reading the probe. A run over `time_limit` seconds (as `measure`
/// counts them) is abandoned.
IntegrationRun run_noether(const Model& model, const std::string& stepper, long steps, double t_end, int samples,
                           double time_limit, TimeMeasure measure);

}  // namespace noether::work_precision
