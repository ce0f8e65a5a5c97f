#include <noether/apps/gnuplot_script.hpp>

#include <algorithm>
#include <cmath>

#include <noether/apps/timeseries_csv.hpp>

namespace noether {
namespace {

constexpr std::string_view svg_terminal =
    "set terminal svg size 900,540 dynamic noenhanced font 'Sans,12' background rgb 'white'\n";
constexpr std::string_view png_terminal =
    "set terminal pngcairo size 900,540 noenhanced font 'Sans,10' background rgb 'white'\n";

/// The y range where gnuplot's own would not do: on a log scale at most `log_decades` below the
/// largest value (a single row with a residual of 1e-28 among 1e-16 would leave the plot empty),
/// and around a value that all points share (gnuplot would warn of an empty range).
std::string y_range(const PlotFigure& figure) {
  constexpr double log_decades = 6;
  double low = figure.y_min, high = figure.y_max;
  if (figure.log_y) {
    low = std::max(low, high * std::pow(10.0, -log_decades)) / 2;
    high *= 2;
  } else if (low == high) {
    const double margin = low == 0 ? 1 : std::abs(low) / 10;
    low -= margin;
    high += margin;
  } else {
    return {};
  }
  return "set yrange [" + format_double(low) + ":" + format_double(high) + "]\n";
}

std::string plot_command(const PlotFigure& figure, std::string_view data_file) {
  std::string command = "plot ";
  for (std::size_t k = 0; k < figure.lines.size(); ++k) {
    const PlotLine& line = figure.lines[k];
    command += (k == 0 ? gnuplot_quoted(data_file) : std::string("''")) +
               " using 1:" + std::to_string(line.column + 1) + " with lines linewidth 1.5 title " +
               gnuplot_quoted(line.legend);
    command += k + 1 < figure.lines.size() ? ", \\\n     " : "\n";
  }
  return command;
}

std::string figure_script(const PlotFigure& figure, std::string_view data_file, std::string_view heading) {
  std::string s = "\n# " + figure.name + "\nreset\n";
  s += svg_terminal;
  s += "set output " + gnuplot_quoted(figure.name + ".svg.tmp") + "\n";
  s += "set title " + gnuplot_quoted(heading) + " . \"\\n\" . " + gnuplot_quoted(figure.title) + "\n";
  s += "set xlabel 't'\nset ylabel " + gnuplot_quoted(figure.y_label) + "\n";
  s += "set grid\nset key outside center bottom horizontal\nset bmargin 6\nset autoscale xfix\n";
  if (figure.log_y) s += "set logscale y\nset format y '%.0e'\n";
  s += y_range(figure);
  s += plot_command(figure, data_file);
  s += png_terminal;
  s += "set output " + gnuplot_quoted(figure.name + ".png.tmp") + "\nreplot\nset output\n";
  return s;
}

}  // namespace

std::string gnuplot_quoted(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "''";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      quoted += ' ';
    else
      quoted += c;
  }
  quoted += '\'';
  return quoted;
}

std::string gnuplot_script(const PlotData& data, std::string_view data_file, std::string_view heading) {
  std::string script =
      "# Written by noether plot, which runs gnuplot plot.gp in this directory and renames each\n"
      "# figure's .tmp file to its name once gnuplot succeeded.\n";
  script += "set encoding utf8\n";
  for (const PlotFigure& figure : data.figures) script += figure_script(figure, data_file, heading);
  return script;
}

}  // namespace noether
