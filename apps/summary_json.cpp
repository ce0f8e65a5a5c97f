#include <noether/apps/summary_json.hpp>

#include <fstream>
#include <stdexcept>

namespace noether {

nlohmann::ordered_json summary_json(const RunResult& result) {
  const RunConfiguration& run = result.configuration;
  nlohmann::ordered_json j = {{"scenario", result.scenario},
                              {"stepper", run.stepper},
                              {"solver", to_string(run.solver)},
                              {"h", run.h},
                              {"t_end", run.t_end},
                              {"newton_method", newton_method_name(run.newton)},
                              {"newton_tolerance", run.newton.residual_tolerance},
                              {"newton_max_iterations", run.newton.max_iterations},
                              {"newton_refresh_contraction", run.newton.refresh_contraction},
                              {"steps", result.steps},
                              {"newton_iterations_total", result.newton_iterations_total},
                              {"newton_iterations_max", result.newton_iterations_max},
                              {"newton_factorizations_total", result.newton_factorizations_total},
                              {"wall_seconds", result.wall_seconds},
                              {"energy_initial", result.energy_initial},
                              {"energy_final", result.energy_final},
                              {"energy_max_abs_increment", result.energy_max_abs_increment},
                              {"constraint_max_abs", result.constraint_max_abs},
                              {"velocity_constraint_max_abs", result.velocity_constraint_max_abs},
                              {"ok", result.ok}};
  if (!result.ok) j["error"] = result.error;
  j["parameters"] = result.parameters;
  j["threads"] = result.threads;
  j["phase_seconds"] = {{"assembly", result.phase_seconds.assembly},
                        {"factorization", result.phase_seconds.factorization},
                        {"solve", result.phase_seconds.solve}};
  return j;
}

void write_summary_json(const std::filesystem::path& path, const RunResult& result) {
  std::ofstream out(path);
  out << summary_json(result).dump(2) << '\n';
  if (!out) throw std::runtime_error("cannot write '" + path.string() + "'");
}

}  // namespace noether
