#include <noether/apps/plot_command.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <noether/apps/child_process.hpp>
#include <noether/apps/gnuplot_script.hpp>
#include <noether/apps/output_directory.hpp>
#include <noether/apps/plot_data.hpp>
#include <noether/apps/timeseries_csv.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

constexpr const char* data_file_name = "plot_data.tsv";
constexpr const char* script_file_name = "plot.gp";
constexpr const char* gnuplot_package = "gnuplot-nox";

/// path as quote() quotes a name.
std::string quote(const std::filesystem::path& path) { return noether::quote(std::string_view(path.native())); }

/// What DIR/summary.json says, when it exists and parses: the titles' heading and the current time series.
struct RunDescription {
  std::string heading, status, timeseries;
};

std::string text_field(const nlohmann::json& summary, const char* key) {
  const auto it = summary.find(key);
  return it != summary.end() && it->is_string() ? it->get<std::string>() : std::string();
}

RunDescription describe_run(const std::filesystem::path& directory) {
  RunDescription run{.heading = directory.filename().string(), .status = {}, .timeseries = {}};
  std::ifstream file(directory / "summary.json");
  if (!file) return run;
  std::stringstream text;
  text << file.rdbuf();
  const nlohmann::json summary = nlohmann::json::parse(text.str(), nullptr, false);
  if (!summary.is_object()) return run;
  run.status = text_field(summary, "status");
  run.timeseries = text_field(summary, "timeseries");
  const std::string scenario = text_field(summary, "scenario"), stepper = text_field(summary, "stepper");
  if (!scenario.empty()) run.heading = scenario + ", " + stepper + " (" + run.status + ")";
  return run;
}

/// The time series to plot: the one summary.json names, else timeseries.csv, else its .partial.
std::filesystem::path find_timeseries(const std::filesystem::path& directory, const RunDescription& run) {
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error))
    throw std::invalid_argument(
        "plot: " + quote(directory) +
        (std::filesystem::exists(directory, error) ? " is not a directory" : " does not exist") +
        "; give the --out directory of a noether run");
  for (const std::string& name :
       {run.timeseries, std::string(TimeseriesCsv::kFileName), std::string(TimeseriesCsv::kPartialFileName)})
    if ((name == TimeseriesCsv::kFileName || name == TimeseriesCsv::kPartialFileName) &&
        std::filesystem::is_regular_file(directory / name, error))
      return directory / name;
  throw std::invalid_argument("plot: " + quote(directory) + " holds no " + TimeseriesCsv::kFileName + " (nor " +
                              TimeseriesCsv::kPartialFileName + "); give the --out directory of a noether run");
}

PlotData read_timeseries(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) throw std::invalid_argument("plot: cannot read " + quote(path) + ": " + std::strerror(errno));
  return read_plot_data(file, path.string());
}

/// gnuplot's stderr as one line: its lines joined by "; ".
std::string one_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  std::string line;
  for (char c : text) line += c == '\n' ? std::string("; ") : std::string(1, c);
  return line;
}

void run_gnuplot(const OutputDirectory& plots, PlotReport& report) {
  const ProgramResult gnuplot = run_program({"gnuplot", script_file_name}, plots.path());
  if (!gnuplot.started && gnuplot.start_error == ENOENT)
    throw std::runtime_error(
        std::string("plot: gnuplot is not installed (not found on PATH); install the Debian package ") +
        gnuplot_package + " (apt-get install " + gnuplot_package + ")");
  if (!gnuplot.started)
    throw std::runtime_error(std::string("plot: cannot start gnuplot: ") + std::strerror(gnuplot.start_error));
  if (gnuplot.exit_code != 0)
    throw std::runtime_error("plot: gnuplot failed on " + quote(plots.path() / script_file_name) + " (" +
                             (gnuplot.signal != 0 ? "signal " + std::to_string(gnuplot.signal)
                                                  : "exit code " + std::to_string(gnuplot.exit_code)) +
                             "): " + one_line(gnuplot.stderr_text));
  if (!gnuplot.stderr_text.empty()) report.notes.push_back("gnuplot: " + one_line(gnuplot.stderr_text));
}

/// Syncs the file gnuplot wrote (it does not) and renames it into place.
void commit_figure(const OutputDirectory& plots, const std::string& temporary, const std::string& name) {
  const int fd = ::open((plots.path() / temporary).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw plots.error("reading gnuplot's output", temporary);
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) throw plots.error("syncing", temporary);
  plots.rename(temporary, name);
}

/// Removes the files gnuplot writes, before it runs (an entry of that name, a symlink say, is not
/// written through) and after it failed.
void remove_temporaries(const OutputDirectory& plots, const PlotData& data) {
  for (const PlotFigure& figure : data.figures)
    for (const char* extension : {".svg", ".png"}) plots.remove(figure.name + extension + ".tmp");
}

/// Removes the figures of an earlier plot that this one does not draw.
void remove_stale_figures(const OutputDirectory& plots, const PlotData& data) {
  for (const auto& entry : std::filesystem::directory_iterator(plots.path())) {
    const std::filesystem::path name = entry.path().filename();
    if (name.extension() != ".svg" && name.extension() != ".png") continue;
    bool current = false;
    for (const PlotFigure& figure : data.figures) current = current || name.stem() == figure.name;
    if (!current) plots.remove(name.string());
  }
}

}  // namespace

PlotReport plot_run_directory(const std::filesystem::path& directory) {
  const RunDescription run = describe_run(directory);
  PlotReport report;
  report.timeseries = find_timeseries(directory, run);
  const PlotData data = read_timeseries(report.timeseries);
  report.rows = data.rows;
  if (report.timeseries.filename() == TimeseriesCsv::kPartialFileName)
    report.notes.push_back(quote(directory) + " holds " + TimeseriesCsv::kPartialFileName + " (" +
                           (run.status.empty() ? "no summary.json" : "summary.json says \"" + run.status + "\"") +
                           "): the run goes on, or was killed; plotting the " + std::to_string(data.rows) +
                           " rows written so far");
  if (data.last_line_incomplete && report.timeseries.filename() == TimeseriesCsv::kFileName)
    report.notes.push_back(quote(report.timeseries) + " ends in a line without newline; left out");
  if (data.figures.empty()) throw std::invalid_argument("plot: " + quote(report.timeseries) + " has nothing to plot");

  // plots/ is reached through the run's directory and never through a symlink, as vtk/ is; the
  // run's directory stays unlocked (a run may be writing it), plots/ is locked.
  const OutputDirectory run_directory(directory, system_file_calls(), OutputDirectory::Lock::none);
  const OutputDirectory plots(run_directory, "plots", OutputDirectory::Lock::exclusive);
  plots.replace(data_file_name, plot_data_text(data));
  plots.replace(script_file_name, gnuplot_script(data, data_file_name, run.heading));
  remove_temporaries(plots, data);
  try {
    run_gnuplot(plots, report);
  } catch (const std::runtime_error&) {
    remove_temporaries(plots, data);
    throw;
  }
  for (const PlotFigure& figure : data.figures)
    for (const char* extension : {".svg", ".png"}) {
      const std::string name = figure.name + extension;
      commit_figure(plots, name + ".tmp", name);
      report.files.push_back(plots.path() / name);
    }
  remove_stale_figures(plots, data);
  return report;
}

}  // namespace noether
