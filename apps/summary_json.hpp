#pragma once
/// summary.json: the RunResult as one JSON object (docs/output.md lists the keys).
#include <filesystem>

#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>

namespace noether {

/// Keys: scenario, stepper, solver, h, t_end, newton_method, newton_tolerance,
/// newton_max_iterations, newton_refresh_contraction, steps, newton_iterations_total,
/// newton_iterations_max, newton_factorizations_total, wall_seconds, energy_initial, energy_final,
/// energy_max_abs_increment, constraint_max_abs, velocity_constraint_max_abs, ok, error (only
/// when !ok), parameters, scene (the file, for a scene run), initial_projection, threads, phase_seconds.
/// Keys keep this order; quantities never computed (NaN) become null.
nlohmann::ordered_json summary_json(const RunResult& result);

/// Writes summary_json(result) to path; throws std::runtime_error naming the path on failure.
void write_summary_json(const std::filesystem::path& path, const RunResult& result);

}  // namespace noether
