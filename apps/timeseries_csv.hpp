#pragma once
/// timeseries.csv: one row per written state (docs/output.md describes the columns).
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <noether/apps/output_directory.hpp>
#include <noether/apps/output_labels.hpp>
#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// What a row of timeseries.csv holds besides t, q and g (docs/output.md): the whole model's values
/// at the state, measured by the run (RunRecorder), over parts summed over the processes.
struct RowMeasures {
  static constexpr double none = std::numeric_limits<double>::quiet_NaN();
  double energy = none;  ///< the stepper's conserved energy at the state
  double work = none;    ///< W summed from step 0 to the state (RunStatistics::work_total)
  /// E_{n+1} - E_n - W_n of the step that led to the state: NaN for the initial state, and for
  /// sem-vi's first step, whose start has no discrete energy.
  double balance = none;
  double h = none, condition = none;  ///< of the step that led to the state
};

/// The values of a row that the measures of every state do not hold: each probe's position, the
/// kinetic plus potential energy, the conserved momenta (ConservedMomenta::values) and, with
/// reaction columns, the joints' reactions (ReactionColumns::values).
struct RowValues {
  std::vector<Vector> probes;
  double total_energy = RowMeasures::none;
  std::vector<double> momenta;
  std::vector<double> reactions;
};

/// Column names: t, q:<block>.<coordinate> per coordinate, <probe>.x/.y(/.z) per probe
/// (apps/model/output_columns.hpp), energy, total_energy, work, energy_balance,
/// g:<constraint>[<row>] per constraint row,
/// h, condition when the stepper reports its condition estimate, then the conserved momentum
/// components (ConservedMomenta::names(): linear_momentum.x, ..., angular_momentum.z), then with
/// reaction columns reaction:<joint>.<component> per joint and component (ReactionColumns, in
/// the order of reaction_layouts). No two are equal for a model build_model made
/// (System::add_block and probe_name_clash refuse what would be; reaction_column says why its own
/// cannot be).
std::vector<std::string> timeseries_columns(const System& system, std::span<const Probe> probes,
                                            const ConservedMomenta& momenta = {}, bool condition_column = false,
                                            bool reaction_columns = false);
/// The same columns, each given to `column` in turn, without a list of them.
void for_each_timeseries_column(const OutputLabels& labels, std::span<const Probe> probes,
                                const ConservedMomenta& momenta, bool condition_column,
                                std::span<const std::string> reaction_columns,
                                const std::function<void(std::string_view)>& column);

/// Writes the header at construction and one row per write_row, each value with 17 significant
/// digits so that two runs compare bitwise. While the run goes on the file is
/// timeseries.csv.partial, holding whole rows only (StagedFile), at most a second behind the run;
/// commit renames it timeseries.csv.
class TimeseriesCsv {
 public:
  static constexpr const char* kFileName = "timeseries.csv";
  static constexpr const char* kPartialFileName = "timeseries.csv.partial";

  /// Creates kPartialFileName in directory (which must outlive this object) and writes the header
  /// (timeseries_columns, the reaction columns named by reaction_columns; the arguments are read
  /// during construction alone). Throws OutputError naming the file and the reason when it cannot.
  TimeseriesCsv(const OutputDirectory& directory, const OutputLabels& labels, std::span<const Probe> probes,
                const ConservedMomenta& momenta = {}, bool condition_column = false,
                std::span<const std::string> reaction_columns = {});
  /// Continues kPartialFileName (which must exist) after its first `length` bytes, header included,
  /// as a checkpoint recorded them (sync); what follows them is cut off.
  TimeseriesCsv(const OutputDirectory& directory, std::uint64_t length, bool condition_column = false);

  /// The row of state.t and state.q (the whole model's), g: g(state.q) (the whole's rows),
  /// measures: the energy, work and balance at state, and the size and condition estimate of the
  /// step that led to it (condition written only with its column); values: the probes'
  /// positions, the total energy, the momenta and the reactions (none without their columns).
  /// Throws OutputError when the file cannot be written (the file then ends with the last whole
  /// row).
  void write_row(const State& state, ConstVectorRef g, const RowMeasures& measures, const RowValues& values);
  /// What gives a row's values of q or of g, in order, to `value`.
  using ValueSource = std::function<void(const std::function<void(double)>& value)>;
  /// The same row with its q and g given by sources (over parts, brought to rank 0 a range at a
  /// time: RowEntries), handed to the file as it grows (StagedFile::flush_within_record), so that
  /// neither the row nor its values are held whole.
  void write_row(double t, const ValueSource& q, const ValueSource& g, const RowMeasures& measures,
                 const RowValues& values);
  /// Writes what is buffered and renames the file timeseries.csv; OutputError on failure.
  void commit();
  /// Writes the rows so far to the disk (StagedFile::sync) and returns the file's length in bytes.
  std::uint64_t sync();
  /// The name the rows are under: kPartialFileName until commit succeeds, then kFileName.
  const char* file_name() const { return committed_ ? kFileName : kPartialFileName; }

 private:
  void write_value(double value);
  void end_row();

  bool condition_column_;
  StagedFile file_;
  bool committed_ = false;
  bool row_started_ = false;
};

/// value with 17 significant digits ("%.17g"): enough to read back the same double.
std::string format_double(double value);

}  // namespace noether
