#pragma once
/// The output directory of one run, true at every moment (docs/output.md, "How the files are
/// written"): from the start summary.json says "running", the rows grow in timeseries.csv.partial
/// and the drawings in vtk/; at the end the rows are renamed timeseries.csv, motion.pvd lists the
/// drawings, final_state.json holds the last good state and summary.json says completed, failed or
/// interrupted.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <noether/apps/output_directory.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/timeseries_csv.hpp>
#include <noether/apps/vtk_series.hpp>

namespace noether {

class StateEntries;  // final_state.hpp

class RunOutputs {
 public:
  /// Opens (creates, locks) the directory, writes the summary of `running` (status running, with
  /// this directory's files) and then removes a previous run's timeseries.csv, motion.pvd,
  /// final_state.json and checkpoint.json. Throws OutputError when the directory or the summary cannot be written: the
  /// files in the directory are then as they were.
  RunOutputs(const std::filesystem::path& directory, const FileCalls& calls, const RunOutcome& running);
  /// For a resumed run: as above, but the time series is continued after its first
  /// `timeseries_length` bytes (a checkpoint's), from timeseries.csv.partial, or from
  /// timeseries.csv renamed so when the run that wrote it closed it (the other one is removed).
  RunOutputs(const std::filesystem::path& directory, const FileCalls& calls, const RunOutcome& running,
             std::uint64_t timeseries_length);

  /// The files written so far, by name.
  const OutputFiles& files() const { return files_; }

  /// Creates timeseries.csv.partial with the columns of a model (its labels, probes, momenta,
  /// reactions: TimeseriesCsv), or continues a resumed run's; OutputError when it cannot.
  TimeseriesCsv& open_timeseries(const OutputLabels& labels, std::span<const Probe> probes,
                                 const ConservedMomenta& momenta, bool condition_column,
                                 std::span<const std::string> reaction_columns = {});
  /// Creates vtk/ and the series of drawing's files (OutputError when it cannot); over several
  /// processes (processes, which must outlive this object; this is rank 0) the series of rank 0's
  /// pieces and the indices, opened with the other processes' series (VtkSeries).
  VtkSeries& open_motion(VtkDrawing drawing, const Distribution* processes = nullptr);
  /// Writes final_state.json of the last good state (entries, the whole model's; step, t and
  /// discrete_energy of state) and the probes' positions (write_final_state_json) and names it in
  /// the summary; OutputError when it cannot.
  void write_final_state(const StateEntries& entries, const State& state, std::span<const Probe> probes,
                         std::span<const Vector> positions);

  /// Closes the data files: renames the time series timeseries.csv and writes motion.pvd (after
  /// syncing the drawings). Returns the message of each file that could not be closed, in order
  /// (each fails the run, cause output); the rows the time series holds, whole ones only, are still
  /// renamed when possible (else they stay under timeseries.csv.partial, as files() says). Never
  /// throws OutputError; does nothing the second time.
  std::vector<std::string> close_files();

  /// Writes the final summary of `outcome` (its files: files()), after close_files. When it cannot
  /// be written, summary.json is removed, so that no file says the run goes on, and the message
  /// says both (it fails the run, cause output). Never throws OutputError.
  std::optional<std::string> write_final_summary(const RunOutcome& outcome);

  /// The time series on the disk (fsync) up to its last row; its length in bytes.
  std::uint64_t sync_timeseries() { return timeseries_->sync(); }
  /// Replaces the file `name` in the directory by `contents`, atomically (OutputDirectory::replace).
  void replace_file(std::string_view name, std::string_view contents) const { directory_.replace(name, contents); }

 private:
  /// summary.json of outcome with files_ as its files.
  void write_summary(RunOutcome outcome);

  OutputDirectory directory_;
  OutputFiles files_;
  std::optional<TimeseriesCsv> timeseries_;
  std::optional<VtkSeries> motion_;
  bool files_closed_ = false;
  std::optional<std::uint64_t> resumed_length_;  ///< the length the time series continues from (resumed run)
};

}  // namespace noether
