#pragma once
/// What `noether plot` draws from a run's timeseries.csv (docs/cli.md, "noether plot"): the
/// columns it reads, the series it derives from them, and the plots they make.
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace noether {

/// The columns of a timeseries.csv header (docs/output.md) that the plots read; -1 where absent.
struct TimeseriesColumns {
  struct Named {
    std::string name;
    std::ptrdiff_t index;
  };
  std::ptrdiff_t t = -1, energy = -1, total_energy = -1, work = -1, energy_balance = -1, h = -1;
  std::vector<std::ptrdiff_t> constraints;  ///< the g:<constraint>[<row>] columns
  std::vector<Named> momenta;               ///< linear_momentum.<axis>, angular_momentum.<axis>
  std::vector<Named> actuators;             ///< actuator:<name>.x: a motor's torque or force
  std::vector<Named> tracking_errors;       ///< tracking_error:<name>.x: a PD motor's x - r(t)
  std::vector<Named> probe_coordinates;     ///< <probe>.x, .y, .z: every column no other kind claims but q:
};

/// Sorts the header's columns into their kinds; throws std::invalid_argument naming `origin` when
/// the header has no column t (not a noether time series).
TimeseriesColumns classify_columns(const std::vector<std::string>& header, const std::string& origin);

/// One series of the data file: its column there, and the legend that names it.
struct PlotLine {
  std::size_t column;  ///< 0-based column of PlotData::columns
  std::string legend;
};

/// One figure: written as <name>.svg and <name>.png.
struct PlotFigure {
  std::string name, title, y_label;
  bool log_y = false;
  std::vector<PlotLine> lines{};
  double y_min = 0, y_max = 0;  ///< the range of the finite values drawn (log_y: of the positive ones)
};

/// The derived series, one column each (column 0 is t), and the figures drawn from them.
struct PlotData {
  std::vector<std::string> column_names;
  std::vector<std::vector<double>> columns;
  std::vector<PlotFigure> figures;
  std::size_t rows = 0;  ///< the rows read; the columns hold fewer when they were thinned (thin_to_envelope)
  bool last_line_incomplete = false;  ///< a line without its newline was left out (a run writing the file)
};

/// Reads a timeseries.csv (or its .partial) from `in` and derives what the figures show:
/// - energy: E - E_ref of `energy` and `total_energy`, E_ref their first finite value (sem-vi's
///   initial row has none), divided by |E_ref| unless E_ref is 0 or below 1e-3 of the largest |E|
///   of the run (then the change is absolute); for a run whose elements do work (a `work` value
///   other than 0), also the work W done on the system since that row, on the scale of `energy`:
///   the change the energy balance expects, so that the energy change reads as what it is;
/// - energy_balance (for a run whose elements do work): |E^{n+1} - E^n - W_n| per step, the
///   residual of the discrete energy balance, log scale;
/// - constraints: max over the g: columns of |g| per row, log scale down to 1e-6 of the largest
///   value (gnuplot_script; linear when every value is 0);
/// - momenta (when there are such columns): each component minus its value in the first row;
/// - probes (when there are probe columns): each coordinate over time;
/// - step_size (when h varies): h over time, log scale.
/// A log scale becomes linear when the values span less than a decade.
/// A series that has no finite value is left out, and so is a figure without series. More than
/// kMaxPlotPoints rows are thinned to their envelope (thin_to_envelope). A last line
/// without newline is left out (a running run's file); every other line must have as many cells
/// as the header, each a number ("nan", "inf" included). Throws std::invalid_argument naming
/// `origin` and the line otherwise, or when there is no row.
PlotData read_plot_data(std::istream& in, const std::string& origin);

/// The most points a series is drawn with: more than a figure has pixels across.
inline constexpr std::size_t kMaxPlotPoints = 4000;

/// When the columns hold more than max_points rows, replaces them by their envelope over buckets
/// of consecutive rows, max_points / 2 buckets: per bucket two rows, the first at the bucket's
/// first t with each series' smallest value in it, the second at its last t with the largest (NaN
/// when the bucket has no number). Unlike a subsample it loses no extreme (a single step's
/// constraint residual); a value moves in time by less than a bucket. read_plot_data applies it
/// with kMaxPlotPoints.
void thin_to_envelope(PlotData& data, std::size_t max_points);

/// The data file gnuplot reads: a comment line of column names, then one line per row, values
/// separated by tabs with 17 significant digits, NaN where a value is undefined or infinite.
std::string plot_data_text(const PlotData& data);

}  // namespace noether
