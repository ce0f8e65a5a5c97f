/// noether_model_part_cost: what building one process's part of a scenario's model costs, against
/// the whole model (docs/distributed.md, "The partitioned model", stage 2); a measurement program,
/// not a test.
///
///   noether_model_part_cost [--scenario NAME] [--n N] [--ranks P] [--generated]
///
/// Describes the scenario (its parameter n = N), then builds the whole model (P = 1) or rank 0's
/// part over P processes (the cut of block_processes, build_model_part), in this one process, and
/// prints the seconds of the build (the cut included) and of the description before it, and the
/// process's peak resident memory (VmHWM: the description, the model and the program). With
/// --generated (P > 1, a generated scenario) the scenario's generator gives the outline and rank
/// 0's part alone (apps/model/description_sink.hpp), as a run over parts does: the whole
/// description is never made. One model per run, so that the peak is its own.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>

#include "process_memory.hpp"

int main(int argc, char** argv) {
  using namespace noether;
  std::string scenario = "chain3d";
  double n = 100000;
  int ranks = 1;
  bool generated = false;
  CLI::App app{"Building one process's part of a scenario's model, against the whole"};
  app.add_option("--scenario", scenario, "a scenario with the parameter n")->capture_default_str();
  app.add_option("--n", n, "its size")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--ranks", ranks, "processes; 1 builds the whole model")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_flag("--generated", generated, "the part generated alone (a generated scenario, P > 1)");
  CLI11_PARSE(app, argc, argv);
  try {
    if (ranks > 1) set_memory_share({.here = 1, .parts = ranks});  // the size judged as one process's part
    const Scenario& s = find_scenario(scenario);
    const ParameterValues values = resolve_parameters(s, {{"n", n}});
    if (generated && (ranks == 1 || !s.generate))
      throw std::invalid_argument("--generated takes a generated scenario and --ranks above 1");
    const auto since = [](auto start) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    auto start = std::chrono::steady_clock::now();
    std::size_t blocks = 0;
    double describing = 0.0;
    if (generated) {
      const PartedModel model = parted([&](DescriptionSink& sink) { s.generate(values, sink); });
      const std::vector<int> processes = block_processes(model.outline.coupling(), ranks);
      blocks = build_model_part(model.part(select_part(model.outline, processes, 0)), 0).system->blocks().size();
    } else {
      const ModelDescription description = s.describe(values);
      describing = since(start);
      start = std::chrono::steady_clock::now();
      if (ranks == 1) {
        blocks = build_model(description).system->blocks().size();
      } else {
        const std::vector<int> processes = block_processes(description_coupling(description), ranks);
        blocks = build_model_part(description, processes, 0).system->blocks().size();
      }
    }
    const double seconds = since(start);
    std::cout << scenario << " n = " << n << (ranks == 1 ? ", the whole model" : ", rank 0's part of " + std::to_string(ranks))
              << (generated ? " generated alone" : "") << ": " << blocks << " blocks, "
              << (generated ? "outlined, generated and built in " : "described in " + std::to_string(describing) + " s, built in ")
              << seconds << " s, peak "
              << static_cast<double>(bench::read_process_memory().peak_bytes) / 1e6 << " MB\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "noether_model_part_cost: " << e.what() << '\n';
    return 1;
  }
}
