#pragma once
/// What a run observes at every state: the summary maxima, the time-series rows, the progress line.
#include <cstdint>
#include <optional>

#include <noether/apps/progress_line.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/timeseries_csv.hpp>
#include <noether/solvers/newton.hpp>

namespace noether {

/// Accumulates into a RunResult (steps, Newton iterations and factorizations, energies, constraint maxima) and, as
/// options ask, writes timeseries.csv rows of steps 0, output_every, ... and draws progress.
class RunRecorder {
 public:
  /// Opens options.output_dir / "timeseries.csv" (the directory must exist) when an output
  /// directory is given. result must outlive the recorder.
  RunRecorder(const Model& model, const RunOptions& options, std::int64_t total_steps, RunResult& result);

  /// The initialized state at step 0 and the stepper's conserved energy there.
  void record_initial(const State& state, double energy);
  /// A completed step: the new state, its conserved energy and the step's Newton report.
  void record_step(const State& state, double energy, const StepReport& report);
  /// The last state reached before a failure: its row, unless it was written already.
  void record_last_good(const State& state);
  /// Ends the progress line.
  void finish();

 private:
  /// Updates the constraint maxima at state and writes its row when one is due.
  void measure(const State& state, double energy);
  /// Updates the conserved momenta's last values and drifts at state.
  void measure_momenta(const State& state);
  /// The refinement of a completed step, when it took substeps.
  void record_refinement(const State& state, double h, const StepReport& report);

  const System& system_;
  const std::vector<Invariant>& invariants_;
  const ConservedMomenta& conserved_momenta_;
  std::vector<Vector> invariants_initial_;
  RunResult& result_;
  int output_every_;
  double energy_last_ = 0.0;  ///< of the last state measured
  std::int64_t last_row_step_ = -1;
  Vector g_, gv_;
  std::optional<TimeseriesCsv> csv_;
  std::optional<ProgressLine> progress_;
};

}  // namespace noether
