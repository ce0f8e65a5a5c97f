#pragma once
/// `noether export`: a run's model and settings as a scene file.
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_file.hpp>

namespace noether {

/// The scene of the run `options` describes: the scenario's model for its resolved parameters (or
/// the scene's model), every run setting resolved as `noether run` would (resolve_run_configuration)
/// and written out, and the output settings (interval, VTK drawings; a scene's directory). `noether
/// run` of it runs the same model with the same settings, so its time series matches the run's bit
/// for bit. Throws std::invalid_argument as run() does for bad options.
Scene export_scene(const RunOptions& options);

}  // namespace noether
