#pragma once
/// `noether plot DIR`: the figures of a run's output directory (docs/cli.md, "noether plot").
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace noether {

/// What plot_run_directory wrote.
struct PlotReport {
  std::filesystem::path timeseries;          ///< the file read: DIR/timeseries.csv or DIR/timeseries.csv.partial
  std::size_t rows = 0;                      ///< its rows plotted
  std::vector<std::filesystem::path> files;  ///< the figures written, DIR/plots/<name>.svg and .png
  std::vector<std::string> notes;            ///< what the user should know: a partial time series, gnuplot's warnings
};

/// Reads DIR/summary.json (when there is one: the scenario, stepper and status for the titles, and
/// which time series is current) and DIR/timeseries.csv, or timeseries.csv.partial when the run
/// goes on or was killed; writes DIR/plots/plot_data.tsv (the series drawn, read_plot_data) and
/// DIR/plots/plot.gp, each replaced atomically, and runs `gnuplot plot.gp` in DIR/plots (found on
/// PATH, its arguments passed without a shell), which draws each figure into <name>.svg.tmp and
/// <name>.png.tmp; these are synced and renamed <name>.svg and <name>.png once gnuplot succeeded.
/// Figures of an earlier plot that this run does not have are removed.
/// Throws std::invalid_argument when DIR is not a run's output directory (missing, no time series,
/// a time series that does not parse or has no row), std::runtime_error when gnuplot is missing
/// (naming the Debian package) or fails (with its stderr), OutputError when a file cannot be written.
PlotReport plot_run_directory(const std::filesystem::path& directory);

}  // namespace noether
