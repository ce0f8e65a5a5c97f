#include <noether/apps/plot_data.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <noether/apps/timeseries_csv.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string_view> split_cells(std::string_view line) {
  std::vector<std::string_view> cells;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return cells;
    start = comma + 1;
  }
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

/// The first finite value of a series, if any.
std::optional<double> first_finite(const std::vector<double>& values) {
  for (double v : values)
    if (std::isfinite(v)) return v;
  return std::nullopt;
}

/// The figure's lines that have a finite value (positive for a log scale), and its range; false
/// when none has.
bool keep_drawable_lines(PlotFigure& figure, const std::vector<std::vector<double>>& columns) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  std::erase_if(figure.lines, [&](const PlotLine& line) {
    bool drawable = false;
    for (double v : columns[line.column]) {
      if (!std::isfinite(v) || (figure.log_y && v <= 0)) continue;
      drawable = true;
      low = std::min(low, v);
      high = std::max(high, v);
    }
    return !drawable;
  });
  figure.y_min = low;
  figure.y_max = high;
  return !figure.lines.empty();
}

/// Reads the rows into one vector per column of the header that the plots need.
class RowReader {
 public:
  RowReader(const TimeseriesColumns& columns, std::size_t cells, const std::string& origin)
      : columns_(columns), cells_(cells), origin_(origin) {}

  /// Parses one line (its number for messages); the raw values of the kept columns.
  void add(std::string_view line, std::size_t line_number) {
    const std::vector<std::string_view> cells = split_cells(line);
    if (cells.size() != cells_)
      throw std::invalid_argument(origin_ + " line " + std::to_string(line_number) + ": " +
                                  std::to_string(cells.size()) + " cells, the header has " + std::to_string(cells_));
    const auto value = [&](std::ptrdiff_t index) {
      return index < 0 ? nan_value : number(cells[static_cast<std::size_t>(index)], line_number);
    };
    t.push_back(value(columns_.t));
    energy.push_back(value(columns_.energy));
    total_energy.push_back(value(columns_.total_energy));
    work.push_back(value(columns_.work));
    balance.push_back(std::abs(value(columns_.energy_balance)));
    h.push_back(value(columns_.h));
    double g_max = columns_.constraints.empty() ? nan_value : 0.0;
    for (std::ptrdiff_t index : columns_.constraints) {
      const double g = std::abs(value(index));
      g_max = std::isnan(g) || std::isnan(g_max) ? nan_value : std::max(g_max, g);
    }
    constraint_max.push_back(g_max);
    momenta.resize(columns_.momenta.size());
    for (std::size_t k = 0; k < columns_.momenta.size(); ++k) momenta[k].push_back(value(columns_.momenta[k].index));
    probes.resize(columns_.probe_coordinates.size());
    for (std::size_t k = 0; k < columns_.probe_coordinates.size(); ++k)
      probes[k].push_back(value(columns_.probe_coordinates[k].index));
    actuators.resize(columns_.actuators.size());
    for (std::size_t k = 0; k < columns_.actuators.size(); ++k) actuators[k].push_back(value(columns_.actuators[k].index));
    tracking_errors.resize(columns_.tracking_errors.size());
    for (std::size_t k = 0; k < columns_.tracking_errors.size(); ++k)
      tracking_errors[k].push_back(value(columns_.tracking_errors[k].index));
  }

  std::vector<double> t, energy, total_energy, work, balance, h, constraint_max;
  std::vector<std::vector<double>> momenta, probes, actuators, tracking_errors;

 private:
  double number(std::string_view cell, std::size_t line_number) const {
    double v = 0;
    const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (error != std::errc() || end != cell.data() + cell.size())
      throw std::invalid_argument(origin_ + " line " + std::to_string(line_number) + ": " + quote(std::string(cell)) +
                                  " is not a number");
    return v;
  }

  const TimeseriesColumns& columns_;
  std::size_t cells_;
  const std::string& origin_;
};

/// Builds the data's columns and figures from the raw series.
class FigureBuilder {
 public:
  explicit FigureBuilder(PlotData& data) : data_(data) {}

  std::size_t add_column(std::string name, std::vector<double> values) {
    data_.column_names.push_back(std::move(name));
    data_.columns.push_back(std::move(values));
    return data_.columns.size() - 1;
  }

  /// Adds the figure when one of its lines can be drawn; on a linear scale when its values span
  /// less than a decade.
  void add_figure(PlotFigure figure) {
    if (!keep_drawable_lines(figure, data_.columns)) return;
    if (figure.log_y && figure.y_max < 10 * figure.y_min) {
      figure.log_y = false;
      keep_drawable_lines(figure, data_.columns);
    }
    data_.figures.push_back(std::move(figure));
  }

  /// E - E_ref, relative to |E_ref| where that says something (read_plot_data); its legend.
  PlotLine energy_change(const std::string& name, std::vector<double> energy) {
    const EnergyScale scale = energy_scale(energy);
    for (double& e : energy) e = scale.relative ? (e - scale.reference) / std::abs(scale.reference) : e - scale.reference;
    const std::string legend =
        name + (scale.relative ? ": (E - E0) / |E0|" : ": E - E0") + ", E0 = " + format_number(scale.reference);
    return {add_column(name + "_error", std::move(energy)), legend};
  }

  /// W - W_ref, W_ref its value in the row of the energy's first finite value, on the energy's
  /// scale (energy_change of `energy`); its legend.
  PlotLine work_done(std::vector<double> work, const std::vector<double>& energy) {
    const EnergyScale scale = energy_scale(energy);
    const auto row = std::find_if(energy.begin(), energy.end(), [](double e) { return std::isfinite(e); });
    const double reference = row == energy.end() ? nan_value : work[static_cast<std::size_t>(row - energy.begin())];
    for (double& w : work) w = scale.relative ? (w - reference) / std::abs(scale.reference) : w - reference;
    return {add_column("work", std::move(work)),
            scale.relative ? "work done on the system: W / |E0|" : "work done on the system: W"};
  }

  /// The reference of an energy change: its first finite value, and whether the change is relative
  /// to it (not 0 and at least 1e-3 of the largest |E|).
  struct EnergyScale {
    double reference;
    bool relative;
  };
  static EnergyScale energy_scale(const std::vector<double>& energy) {
    const double reference = first_finite(energy).value_or(nan_value);
    double largest = 0;
    for (double e : energy)
      if (std::isfinite(e)) largest = std::max(largest, std::abs(e));
    return {reference, reference != 0 && std::abs(reference) >= 1e-3 * largest};
  }

  /// value - its first finite value; the legend names both.
  PlotLine change(const std::string& name, std::vector<double> values) {
    const double reference = first_finite(values).value_or(nan_value);
    for (double& v : values) v -= reference;
    return {add_column(name + "_change", std::move(values)), name + " - " + format_number(reference)};
  }

 private:
  PlotData& data_;
};

bool varies(const std::vector<double>& values) {
  const std::optional<double> first = first_finite(values);
  return first && std::any_of(values.begin(), values.end(), [&](double v) { return std::isfinite(v) && v != *first; });
}

void build_figures(RowReader& raw, const TimeseriesColumns& columns, PlotData& data) {
  FigureBuilder build(data);
  build.add_column("t", std::move(raw.t));

  const bool does_work = std::any_of(raw.work.begin(), raw.work.end(), [](double w) { return std::isfinite(w) && w != 0; });
  PlotFigure energy{.name = "energy",
                    .title = does_work ? "energy change from the initial state, and the work done on the system "
                                         "(dampers, loads): the change they cause"
                                       : "energy change from the initial state (the error of a conservative run)",
                    .y_label = "energy change"};
  std::optional<PlotLine> work;  // before the energy's column moves into its line
  if (does_work && columns.energy >= 0) work = build.work_done(std::move(raw.work), raw.energy);
  if (columns.energy >= 0) energy.lines.push_back(build.energy_change("energy", std::move(raw.energy)));
  if (columns.total_energy >= 0)
    energy.lines.push_back(build.energy_change("total_energy", std::move(raw.total_energy)));
  if (work) energy.lines.push_back(*work);
  build.add_figure(std::move(energy));

  if (does_work && columns.energy_balance >= 0) {
    const bool any_positive = std::any_of(raw.balance.begin(), raw.balance.end(), [](double b) { return b > 0; });
    PlotFigure balance{.name = "energy_balance",
                       .title = "discrete energy balance per step, |E(n+1) - E(n) - W(n)|: the scheme's energy error",
                       .y_label = "|E(n+1) - E(n) - W(n)|",
                       .log_y = any_positive};
    balance.lines.push_back({build.add_column("energy_balance_abs", std::move(raw.balance)), "|E(n+1) - E(n) - W(n)|"});
    build.add_figure(std::move(balance));
  }

  if (!columns.constraints.empty()) {
    const std::string count = std::to_string(columns.constraints.size());
    const bool any_positive =
        std::any_of(raw.constraint_max.begin(), raw.constraint_max.end(), [](double g) { return g > 0; });
    PlotFigure constraints{.name = "constraints",
                           .title = "constraint residual, max over " + count + " equations",
                           .y_label = "max |g(q)|",
                           .log_y = any_positive};
    constraints.lines.push_back({build.add_column("constraint_max_abs", std::move(raw.constraint_max)), "max |g|"});
    build.add_figure(std::move(constraints));
  }

  if (!columns.momenta.empty()) {
    PlotFigure momenta{
        .name = "momenta", .title = "conserved momenta, change from the initial state", .y_label = "I - I(0)"};
    for (std::size_t k = 0; k < columns.momenta.size(); ++k)
      momenta.lines.push_back(build.change(columns.momenta[k].name, std::move(raw.momenta[k])));
    build.add_figure(std::move(momenta));
  }

  if (!columns.probe_coordinates.empty()) {
    PlotFigure probes{.name = "probes", .title = "probes", .y_label = "coordinate"};
    for (std::size_t k = 0; k < columns.probe_coordinates.size(); ++k) {
      const std::string& name = columns.probe_coordinates[k].name;
      probes.lines.push_back({build.add_column(name, std::move(raw.probes[k])), name});
    }
    build.add_figure(std::move(probes));
  }

  const auto add_named = [&](std::vector<std::vector<double>>& values, const std::vector<TimeseriesColumns::Named>& named,
                             PlotFigure figure) {
    if (named.empty()) return;
    for (std::size_t k = 0; k < named.size(); ++k)
      figure.lines.push_back({build.add_column(named[k].name, std::move(values[k])), named[k].name});
    build.add_figure(std::move(figure));
  };
  add_named(raw.actuators, columns.actuators,
            {.name = "actuators", .title = "actuators: torque or force", .y_label = "N m or N"});
  add_named(raw.tracking_errors, columns.tracking_errors,
            {.name = "tracking", .title = "tracking error x - r(t)", .y_label = "rad or m"});

  if (varies(raw.h)) {
    PlotFigure step{.name = "step_size", .title = "step size", .y_label = "h", .log_y = true};
    step.lines.push_back({build.add_column("h", std::move(raw.h)), "h"});
    build.add_figure(std::move(step));
  }
}

}  // namespace

TimeseriesColumns classify_columns(const std::vector<std::string>& header, const std::string& origin) {
  TimeseriesColumns c;
  for (std::size_t k = 0; k < header.size(); ++k) {
    const std::string& name = header[k];
    const auto index = static_cast<std::ptrdiff_t>(k);
    if (name == "t")
      c.t = index;
    else if (name == "energy")
      c.energy = index;
    else if (name == "total_energy")
      c.total_energy = index;
    else if (name == "work")
      c.work = index;
    else if (name == "energy_balance")
      c.energy_balance = index;
    else if (name == "h")
      c.h = index;
    else if (starts_with(name, "g:"))
      c.constraints.push_back(index);
    else if (starts_with(name, "linear_momentum.") || starts_with(name, "angular_momentum."))
      c.momenta.push_back({name, index});
    else if (starts_with(name, "actuator:"))
      c.actuators.push_back({name, index});
    else if (starts_with(name, "tracking_error:"))
      c.tracking_errors.push_back({name, index});
    else if (!starts_with(name, "q:") && !starts_with(name, "reaction:") && name != "condition")
      c.probe_coordinates.push_back({name, index});
  }
  if (c.t < 0) throw std::invalid_argument(origin + ": the header has no column 't'; is it a noether time series?");
  return c;
}

PlotData read_plot_data(std::istream& in, const std::string& origin) {
  std::string line;
  if (!std::getline(in, line) || in.eof()) throw std::invalid_argument(origin + ": no header line");
  std::vector<std::string> header;
  for (std::string_view cell : split_cells(line)) header.emplace_back(cell);
  const TimeseriesColumns columns = classify_columns(header, origin);

  PlotData data;
  RowReader raw(columns, header.size(), origin);
  for (std::size_t line_number = 2; std::getline(in, line); ++line_number) {
    if (in.eof()) {  // no newline: a row still being written
      data.last_line_incomplete = !line.empty();
      break;
    }
    raw.add(line, line_number);
  }
  data.rows = raw.t.size();
  if (data.rows == 0) throw std::invalid_argument(origin + ": no rows to plot yet");
  build_figures(raw, columns, data);
  thin_to_envelope(data, kMaxPlotPoints);
  return data;
}

void thin_to_envelope(PlotData& data, std::size_t max_points) {
  const std::size_t rows = data.columns.front().size(), buckets = std::max<std::size_t>(max_points / 2, 1);
  if (rows <= max_points) return;
  const std::size_t size = (rows + buckets - 1) / buckets;
  for (std::size_t c = 0; c < data.columns.size(); ++c) {
    const std::vector<double>& column = data.columns[c];
    std::vector<double> envelope;
    for (std::size_t first = 0; first < rows; first += size) {
      const std::size_t last = std::min(first + size, rows) - 1;
      if (c == 0) {  // t: the bucket's first and last time
        envelope.insert(envelope.end(), {column[first], column[last]});
        continue;
      }
      double low = nan_value, high = nan_value;
      for (std::size_t row = first; row <= last; ++row) {
        if (std::isnan(column[row])) continue;
        low = std::isnan(low) ? column[row] : std::min(low, column[row]);
        high = std::isnan(high) ? column[row] : std::max(high, column[row]);
      }
      envelope.insert(envelope.end(), {low, high});
    }
    data.columns[c] = std::move(envelope);
  }
}

std::string plot_data_text(const PlotData& data) {
  std::string text = "#";
  for (const std::string& name : data.column_names) text += ' ' + name;
  text += '\n';
  for (std::size_t row = 0; row < data.columns.front().size(); ++row) {
    for (std::size_t column = 0; column < data.columns.size(); ++column) {
      const double v = data.columns[column][row];
      if (column > 0) text += '\t';
      text += std::isfinite(v) ? format_double(v) : std::string("NaN");
    }
    text += '\n';
  }
  return text;
}

}  // namespace noether
