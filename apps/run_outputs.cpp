#include <noether/apps/run_outputs.hpp>

#include <noether/apps/final_state.hpp>
#include <noether/apps/summary_json.hpp>

namespace noether {
namespace {

constexpr const char* kSummaryFileName = "summary.json";

}  // namespace

RunOutputs::RunOutputs(const std::filesystem::path& directory, const FileCalls& calls, RunResult& result)
    : directory_(directory, calls), result_(result) {
  result_.timeseries_file = TimeseriesCsv::kPartialFileName;
  write_summary();
  // A previous run's files must not sit beside this run's summary.
  for (const char* name : {TimeseriesCsv::kFileName, VtkSeries::kCollectionName, kFinalStateFileName}) directory_.remove(name);
}

RunOutputs::RunOutputs(const std::filesystem::path& directory, const FileCalls& calls, RunResult& result,
                       std::uint64_t timeseries_length)
    : directory_(directory, calls), result_(result), resumed_length_(timeseries_length) {
  result_.timeseries_file = TimeseriesCsv::kPartialFileName;
  write_summary();
  // The rows under the name read_checkpoint checked: the partial file when it is a file (a run
  // killed, or one whose closing rename failed), else timeseries.csv (a run that closed it).
  if (directory_.holds_file(TimeseriesCsv::kPartialFileName))
    directory_.remove(TimeseriesCsv::kFileName);
  else
    directory_.rename(TimeseriesCsv::kFileName, TimeseriesCsv::kPartialFileName);
}

TimeseriesCsv& RunOutputs::open_timeseries(const System& system, std::span<const Probe> probes,
                                           const ConservedMomenta& momenta, bool condition_column) {
  if (resumed_length_) return timeseries_.emplace(directory_, *resumed_length_, system, probes, momenta, condition_column);
  return timeseries_.emplace(directory_, system, probes, momenta, condition_column);
}

VtkSeries& RunOutputs::open_motion(VtkDrawing drawing) { return motion_.emplace(directory_, std::move(drawing)); }

void RunOutputs::write_final_state(const System& system, const State& state, std::span<const Probe> probes) {
  directory_.replace(kFinalStateFileName, final_state_json(system, state, probes));
  result_.final_state_file = kFinalStateFileName;
}

void RunOutputs::write_summary() { directory_.replace(kSummaryFileName, summary_json(result_).dump(2) + '\n'); }

void RunOutputs::close_files() {
  if (files_closed_) return;
  files_closed_ = true;
  if (timeseries_) {
    try {
      timeseries_->commit();
    } catch (const OutputError& e) {
      result_.fail(FailureCause::output, e.what(), result_.steps, result_.t_reached);
      // The rows that reached the file are whole (StagedFile): they go under the final name
      // when that is still possible, as after any other failure.
      try {
        timeseries_->commit();
      } catch (const OutputError&) {
      }
    }
    result_.timeseries_file = timeseries_->file_name();
  } else {
    result_.timeseries_file.clear();
  }
  if (motion_) {
    try {
      motion_->commit();
      result_.motion_file = VtkSeries::kCollectionName;
    } catch (const OutputError& e) {
      result_.fail(FailureCause::output, e.what(), result_.steps, result_.t_reached);
    }
  }
}

void RunOutputs::finish() {
  close_files();
  try {
    write_summary();
  } catch (const OutputError& e) {
    result_.fail(FailureCause::output, e.what(), result_.steps, result_.t_reached);
    try {
      directory_.remove(kSummaryFileName);
      result_.error += "; removed " + (directory_.path() / kSummaryFileName).string() + ", which said the run was running";
    } catch (const OutputError& removal) {
      result_.error += std::string("; ") + removal.what();
    }
  }
}

}  // namespace noether
