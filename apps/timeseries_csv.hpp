#pragma once
/// timeseries.csv: one row per written state (docs/output.md describes the columns).
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// Column names: t, q:<block>.<coordinate> per coordinate, <probe>.x/.y(/.z) per probe,
/// energy, total_energy, g:<constraint>[<row>] per constraint row, then the conserved momentum
/// components (ConservedMomenta::names(): linear_momentum.x, ..., angular_momentum.z).
std::vector<std::string> timeseries_columns(const System& system, std::span<const Probe> probes,
                                            const ConservedMomenta& momenta = {});

/// Writes the header at construction and one row per write_row, each value with 17 significant
/// digits so that two runs compare bitwise. Rows are flushed as written, so a run that fails
/// leaves the rows computed so far.
class TimeseriesCsv {
 public:
  /// Throws std::runtime_error naming the path when it cannot be opened.
  TimeseriesCsv(const std::filesystem::path& path, const System& system, std::span<const Probe> probes,
                const ConservedMomenta& momenta = {});

  /// energy: the stepper's conserved energy at state; g: g(state.q) (num_multipliers()).
  void write_row(const State& state, double energy, ConstVectorRef g);

 private:
  void write_value(double value);
  void end_row();

  std::filesystem::path path_;
  const System& system_;
  std::span<const Probe> probes_;
  ConservedMomenta momenta_;
  std::ofstream out_;
  bool row_started_ = false;
};

/// value with 17 significant digits ("%.17g"): enough to read back the same double.
std::string format_double(double value);

}  // namespace noether
