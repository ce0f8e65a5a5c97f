#pragma once
/// What a run observes at every state: the summary maxima, the time-series rows, the progress line.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include <noether/apps/progress_line.hpp>
#include <noether/apps/run_parts.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/timeseries_csv.hpp>
#include <noether/apps/vtk_series.hpp>
#include <noether/solvers/newton.hpp>

namespace noether {

/// Gathers and owns the run's statistics (steps, Newton iterations and factorizations, energies,
/// constraint maxima, drifts) and, as options ask, writes timeseries.csv rows and vtk step files of
/// steps 0, output_every, ... and draws progress. Keeps a copy of the last state recorded whole:
/// the last good state after any failure.
class RunRecorder {
 public:
  /// Over parts (parts non-null, which must outlive the recorder) model is this process's part
  /// (RunParts::model) and every state recorded is the part's: the measures are the whole's
  /// (summed or maximized over the processes), the rows rank 0's (the whole state gathered), and
  /// every process records the same states together (collective).
  RunRecorder(const Model& model, const RunOptions& options, std::int64_t total_steps,
              const RunParts* parts = nullptr);

  /// What the recorder has gathered so far.
  const RunStatistics& statistics() const { return statistics_; }

  /// Every probe's position at state (the model's probes, in order), the whole's: over parts
  /// collective.
  std::vector<Vector> probe_positions(const State& state) const { return positions(state, all_probes_); }

  /// From now on the rows go to csv, which must outlive the recorder.
  void write_rows_to(TimeseriesCsv& csv) { csv_ = &csv; }
  /// From now on the rows hold the joints' reactions of `columns` (which must outlive the
  /// recorder; over parts the part's, numbered: RunParts::number_reactions), on every process.
  void record_reactions(const ReactionColumns& columns) { reactions_ = &columns; }
  /// From now on the same states are drawn into series, which must outlive the recorder.
  void draw_motion_to(VtkSeries& series) { vtk_ = &series; }
  /// From now on no state is drawn or written: over several processes a drawing (and over parts a
  /// row) is collective, and a process whose run ends apart from the others'
  /// (ends_on_every_process) draws and gathers no more.
  void end_alone() {
    vtk_ = nullptr;
    alone_ = true;
  }
  /// Over several processes, collective: the pieces of the drawings on the disk
  /// (VtkSeries::sync_pieces); nothing without drawings.
  void sync_drawings() {
    if (vtk_) vtk_->sync_pieces();
  }

  /// What the projection of the initial values onto the constraints did, and its description.
  void record_projection(const InitialProjection& projection, std::string note);
  /// The initialized state at step 0 and the stepper's conserved energy there.
  void record_initial(const State& state, double energy);
  /// A completed step: the new state, its conserved energy and the step's Newton report.
  void record_step(const State& state, double energy, const StepReport& report);
  /// The last good state (last_good()) after a failure or an interruption: its row and drawing,
  /// unless they were written already or no state was recorded.
  void record_last_good();
  /// The last state recorded whole (its measures finite, its row written when due): steps and
  /// t_reached of the statistics; nullptr before the initial state was.
  const State* last_good() const { return started_ ? &last_good_ : nullptr; }
  /// The step after the last one recorded (0 when none was) and the time it starts from: where a
  /// failure stops the run (RunEnding::fail).
  std::pair<std::int64_t, double> unfinished_step() const;
  /// Ends the progress line.
  void finish();

  /// What the recorder keeps between states beyond the statistics: a checkpoint saves it.
  struct Continuation {
    std::vector<Vector> invariants_initial;  ///< each invariant's value at step 0
    double energy_last = 0.0;                ///< the conserved energy at the last state
    double step_size_last = not_computed, condition_last = not_computed;  ///< of the step that led to it
    double balance_last = not_computed;      ///< the energy balance's residual of that step
    std::int64_t last_row_step = -1;         ///< the step of the last row written
  };
  Continuation continuation() const;
  /// Continues from a checkpoint's state as if record_initial and record_step had recorded the
  /// states up to it, whose totals and maxima are `saved`: nothing is measured or written for
  /// state itself. continuation holds one value per invariant of the model, saved one conserved
  /// momentum per momentum the model declares.
  void resume(const State& state, const RunStatistics& saved, const Continuation& continuation);

 private:
  /// Updates the constraint maxima at state and writes its row when one is due (measures: its
  /// energy and work, and the step that led to it). Then state is the last good one.
  void measure(const State& state, const RowMeasures& measures);
  /// The row and the drawing of state, with g_ = g(state.q).
  void write_outputs(const State& state, const RowMeasures& measures);
  /// The row of state: its values measured (over parts, by every process, and gathered at rank 0)
  /// and written to csv_ (where there is one).
  void write_row(const State& state, const RowMeasures& measures);
  /// The positions of the probes `which` (indices into the model's) at state, the whole's: over
  /// parts each evaluated by its process, 0 elsewhere, summed.
  std::vector<Vector> positions(const State& state, std::span<const std::size_t> which) const;
  /// Each invariant's value at state, the whole's: over parts each part's share (its own bodies)
  /// summed over the processes.
  std::vector<Vector> invariant_values(const State& state) const;
  /// The conserved momenta's values (ConservedMomenta::values) at state, the whole's.
  std::vector<double> momentum_values(const State& state) const;
  /// Over parts values summed over the processes (collective); nothing in one process.
  void sum_over_parts(std::span<double> values) const;
  /// The same for vectors, each of the same size on every process.
  void sum_over_parts(std::vector<Vector>& values) const;
  /// The balance of a step that ended at `energy` with work W from energy_final (E^{n+1} - E^n - W),
  /// its largest magnitude and the total work updated; NaN where E^n is (sem-vi's first step).
  double record_balance(double energy, double work);
  /// Throws std::runtime_error when g, G v (of largest entries g_max, gv_max: max_abs) or the
  /// energy at state is not finite (a NaN energy is an energy not yet defined, sem-vi's before its
  /// first step); state is then not recorded.
  void require_finite_measures(const State& state, double g_max, double gv_max, double energy);
  /// Updates the summarized probes' maxima at state.
  void measure_probe_maxima(const State& state);
  /// Updates the conserved momenta's last values and drifts at state.
  void measure_momenta(const State& state);
  /// The refinement of a completed step of size h, when a Newton failure split one of its steps of
  /// the scheme (StepReport::refinements; a composition takes substeps without being refined).
  void record_refinement(const State& state, double h, const StepReport& report);

  const System& system_;
  const RunParts* parts_;
  const std::vector<Invariant>& invariants_;
  std::span<const Probe> probes_;
  std::vector<std::size_t> summarized_probes_;  ///< in the order of RunStatistics::probe_maxima
  std::vector<std::size_t> all_probes_;         ///< 0, 1, ...: every probe, for the rows
  const ConservedMomenta& conserved_momenta_;
  std::vector<Vector> invariants_initial_;
  RunStatistics statistics_;
  int output_every_;
  /// The run writes rows (an output directory): over parts every process measures them together,
  /// rank 0 alone holding the file; without one, nothing of a row is measured.
  bool writes_rows_;
  double initial_t_;
  bool started_ = false;  ///< the initial state was recorded
  /// The row of the last state measured: its energy and work, and the size, condition estimate
  /// and balance of the step that led to it (NaN for the initial state).
  RowMeasures last_;
  State last_good_;
  bool alone_ = false;  ///< end_alone()
  std::int64_t last_row_step_ = -1;
  Vector g_, gv_;
  TimeseriesCsv* csv_ = nullptr;
  const ReactionColumns* reactions_ = nullptr;
  VtkSeries* vtk_ = nullptr;
  std::optional<ProgressLine> progress_;
};

}  // namespace noether
