#include <noether/apps/run_outputs.hpp>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/final_state.hpp>
#include <noether/apps/scene_copy.hpp>
#include <noether/apps/summary_json.hpp>

namespace noether {
namespace {

constexpr const char* kSummaryFileName = "summary.json";

}  // namespace

RunOutputs::RunOutputs(const std::filesystem::path& directory, const FileCalls& calls, const RunOutcome& running)
    : directory_(directory, calls) {
  files_.timeseries = TimeseriesCsv::kPartialFileName;
  write_summary(running);
  // A previous run's files must not sit beside this run's summary: its checkpoint least of all,
  // which `noether resume` would continue over this run's rows, and the scene it named.
  for (const char* name : {TimeseriesCsv::kFileName, VtkSeries::kCollectionName, kFinalStateFileName,
                           Checkpoint::kFileName, SceneCopy::kFileName})
    directory_.remove(name);
}

RunOutputs::RunOutputs(const std::filesystem::path& directory, const FileCalls& calls, const RunOutcome& running,
                       std::uint64_t timeseries_length)
    : directory_(directory, calls), resumed_length_(timeseries_length) {
  files_.timeseries = TimeseriesCsv::kPartialFileName;
  write_summary(running);
  // The rows under the name read_checkpoint checked: the partial file when it is a file (a run
  // killed, or one whose closing rename failed), else timeseries.csv (a run that closed it).
  if (directory_.holds_file(TimeseriesCsv::kPartialFileName))
    directory_.remove(TimeseriesCsv::kFileName);
  else
    directory_.rename(TimeseriesCsv::kFileName, TimeseriesCsv::kPartialFileName);
}

TimeseriesCsv& RunOutputs::open_timeseries(const OutputLabels& labels, std::span<const Probe> probes,
                                           const ConservedMomenta& momenta, bool condition_column,
                                           std::span<const std::string> reaction_columns) {
  if (resumed_length_) return timeseries_.emplace(directory_, *resumed_length_, condition_column);
  return timeseries_.emplace(directory_, labels, probes, momenta, condition_column, reaction_columns);
}

VtkSeries& RunOutputs::open_motion(VtkDrawing drawing, const Distribution* processes) {
  return motion_.emplace(directory_, std::move(drawing), processes);
}

void RunOutputs::write_final_state(const StateEntries& entries, const State& state, std::span<const Probe> probes,
                                   std::span<const Vector> positions) {
  directory_.replace_in_pieces(kFinalStateFileName, [&](const OutputDirectory::PieceWriter& write) {
    write_final_state_json(entries, state, probes, positions, write);
  });
  files_.final_state = kFinalStateFileName;
}

void RunOutputs::write_summary(RunOutcome outcome) {
  outcome.files = files_;
  directory_.replace(kSummaryFileName, summary_json(outcome).dump(2) + '\n');
}

std::vector<std::string> RunOutputs::close_files() {
  std::vector<std::string> failures;
  if (files_closed_) return failures;
  files_closed_ = true;
  if (timeseries_) {
    try {
      timeseries_->commit();
    } catch (const OutputError& e) {
      failures.emplace_back(e.what());
      // The rows that reached the file are whole (StagedFile): they go under the final name
      // when that is still possible, as after any other failure.
      try {
        timeseries_->commit();
      } catch (const OutputError&) {
      }
    }
    files_.timeseries = timeseries_->file_name();
  } else {
    files_.timeseries.clear();
  }
  if (motion_) {
    try {
      motion_->commit();
      files_.motion = VtkSeries::kCollectionName;
    } catch (const OutputError& e) {
      failures.emplace_back(e.what());
    }
  }
  return failures;
}

std::optional<std::string> RunOutputs::write_final_summary(const RunOutcome& outcome) {
  try {
    write_summary(outcome);
    return std::nullopt;
  } catch (const OutputError& e) {
    std::string message = e.what();
    try {
      directory_.remove(kSummaryFileName);
      message += "; removed " + (directory_.path() / kSummaryFileName).string() + ", which said the run was running";
    } catch (const OutputError& removal) {
      message += std::string("; ") + removal.what();
    }
    return message;
  }
}

}  // namespace noether
