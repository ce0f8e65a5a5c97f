/// noether_model_part_cost: what building one process's part of a scenario's model costs, against
/// the whole model (docs/distributed.md, "The partitioned model", stage 2); a measurement program,
/// not a test.
///
///   noether_model_part_cost [--scenario NAME] [--n N] [--ranks P]
///
/// Describes the scenario (its parameter n = N), then builds the whole model (P = 1) or rank 0's
/// part over P processes (the cut of block_processes, build_model_part), in this one process, and
/// prints the build's seconds (the cut included) and the process's peak resident memory (VmHWM:
/// the description, the model and the program). One model per run, so that the peak is its own.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>

#include "process_memory.hpp"

int main(int argc, char** argv) {
  using namespace noether;
  std::string scenario = "chain3d";
  double n = 100000;
  int ranks = 1;
  CLI::App app{"Building one process's part of a scenario's model, against the whole"};
  app.add_option("--scenario", scenario, "a scenario with the parameter n")->capture_default_str();
  app.add_option("--n", n, "its size")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--ranks", ranks, "processes; 1 builds the whole model")->check(CLI::PositiveNumber)->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    const Scenario& s = find_scenario(scenario);
    const ModelDescription description = s.describe(resolve_parameters(s, {{"n", n}}));
    const auto start = std::chrono::steady_clock::now();
    std::size_t blocks = 0;
    if (ranks == 1) {
      blocks = build_model(description).system->blocks().size();
    } else {
      const std::vector<int> processes = block_processes(description_coupling(description), ranks);
      blocks = build_model_part(description, processes, 0).system->blocks().size();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << scenario << " n = " << n << (ranks == 1 ? ", the whole model" : ", rank 0's part of " + std::to_string(ranks))
              << ": " << blocks << " blocks, built in " << seconds << " s, peak "
              << static_cast<double>(bench::read_process_memory().peak_bytes) / 1e6 << " MB\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "noether_model_part_cost: " << e.what() << '\n';
    return 1;
  }
}
