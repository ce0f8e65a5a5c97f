// The drawings of a run over several processes when a process cannot write its piece: the
// processes agree on the output error (agree_on_output) and every process ends the run there, with
// the same ending and message, none alone (docs/output.md, "Over several processes"). The pieces
// read back by VTK: tests/mpi/check_mpi_vtk.py.
#include <filesystem>
#include <optional>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/output_agreement.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/vtk_series.hpp>

#include "mpi/mpi_world.hpp"
#include "support/failing_file_calls.hpp"
#include "support/run_output_files.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

/// The message agree_on_output throws on this process, "" when it returns.
std::string agreed_message(const std::optional<std::string>& own) {
  try {
    agree_on_output(world(), own);
  } catch (const SharedOutputError& e) {
    return e.what();
  }
  return "";
}

/// A directory every process of the job names alike, fresh (rank 0 empties it before the others go on).
fs::path shared_directory(const std::string& name) {
  const fs::path path = fs::current_path() / (name + "_np" + std::to_string(world().ranks()));
  if (world().rank() == 0) fs::remove_all(path);
  world().any(false);
  return path;
}

}  // namespace

TEST_CASE("the processes agree on an output error: none, the last rank's, every rank's") {
  const int rank = world().rank(), last = world().ranks() - 1;
  CHECK(agreed_message(std::nullopt).empty());
  CHECK(agreed_message(rank == last ? std::optional<std::string>("writing 'x' failed: No space left on device")
                                    : std::nullopt) ==
        "rank " + std::to_string(last) + ": writing 'x' failed: No space left on device");
  const std::string others = std::to_string(last) + " more rank" + (last > 1 ? "s" : "") + " failed too";
  CHECK(agreed_message("full on rank " + std::to_string(rank)) == "rank 0: full on rank 0; " + others);
  // A message longer than kAgreedMessageBytes arrives cut there, its bytes as sent (UTF-8 included).
  const std::string long_message = std::string(kAgreedMessageBytes - 2, 'x') + "\xc3\xa9\xc3\xa9";
  CHECK(agreed_message(rank == 0 ? std::optional(long_message) : std::nullopt) ==
        "rank 0: " + long_message.substr(0, kAgreedMessageBytes));
}

TEST_CASE("a process that cannot write its piece of a drawing ends the run on every process alike") {
  const fs::path dir = shared_directory("mpi_vtk_piece");
  const int rank = world().rank(), last = world().ranks() - 1;
  FailingFileCalls calls;
  if (rank == last) {
    calls.target = VtkSeries::piece_name(3, last);
    calls.writes = 0;
  }
  RunOptions options = options_for("chain2d", dir);
  options.overrides = {{"n", 9}};
  options.configure().t_end = 0.1;
  options.file_calls = &calls;
  options.distribution = world_slot();
  const RunOutcome r = run(options);
  CHECK(calls.injected == (rank == last));
  CHECK(r.ending.status == RunStatus::failed);
  CHECK(r.ending.failure.cause == FailureCause::output);
  CHECK(r.ending.failure.agreed);
  CHECK(ends_on_every_process(r.ending));
  const std::string message = "rank " + std::to_string(last) + ": writing '" +
                              (dir / "vtk" / VtkSeries::piece_name(3, last)).string() +
                              "' failed: No space left on device";
  CHECK(r.ending.error == message);
  CHECK(r.statistics.steps == 2);
  if (rank == 0) {
    const nlohmann::json summary = nlohmann::json::parse(read_file(dir / "summary.json"));
    CHECK(summary["status"] == "failed");
    CHECK(summary["error"] == message);
    CHECK(summary["motion"] == "motion.pvd");
    CHECK(attribute_values(read_file(dir / "motion.pvd"), "file") ==
          std::vector<std::string>{"vtk/step_00000000.pvtp", "vtk/step_00000001.pvtp", "vtk/step_00000002.pvtp"});
    CHECK(!fs::exists(dir / "vtk" / "step_00000003.pvtp"));  // no index names a piece that is not there
  }
  world().any(false);
  if (rank == 0) fs::remove_all(dir);
}
