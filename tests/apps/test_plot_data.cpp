/// What `noether plot` draws (apps/plot_data.hpp, apps/gnuplot_script.hpp): the columns it reads
/// from a time series, the series it derives, and the quoting of the texts it puts into gnuplot.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/gnuplot_script.hpp>
#include <noether/apps/plot_data.hpp>

using namespace noether;

namespace {

PlotData read(const std::string& csv) {
  std::istringstream in(csv);
  return read_plot_data(in, "ts.csv");
}

const PlotFigure* figure(const PlotData& data, const std::string& name) {
  for (const PlotFigure& f : data.figures)
    if (f.name == name) return &f;
  return nullptr;
}

const std::vector<double>& line_values(const PlotData& data, const PlotFigure& f, std::size_t line) {
  return data.columns.at(f.lines.at(line).column);
}

std::string read_error(const std::string& csv) {
  try {
    read(csv);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the columns of a time series are sorted into their kinds, probes being what no other kind claims") {
  // Joint reactions (`--reactions on`) are not probes: no figure draws them.
  const TimeseriesColumns c = classify_columns({"t", "q:a.x", "tip.x", "tip.y", "energy", "total_energy", "work",
                                                "energy_balance", "g:j[0]", "g:j[1]", "h", "condition",
                                                "angular_momentum.z", "reaction:j.fx", "reaction:j.mz"},
                                               "ts.csv");
  CHECK(c.t == 0);
  CHECK(c.energy == 4);
  CHECK(c.total_energy == 5);
  CHECK(c.work == 6);
  CHECK(c.energy_balance == 7);
  CHECK(c.h == 10);
  CHECK(c.constraints == std::vector<std::ptrdiff_t>{8, 9});
  REQUIRE(c.momenta.size() == 1);
  CHECK(c.momenta[0].name == "angular_momentum.z");
  REQUIRE(c.probe_coordinates.size() == 2);
  CHECK(c.probe_coordinates[0].name == "tip.x");
  CHECK(c.probe_coordinates[1].index == 3);
  CHECK_THROWS_WITH_AS(classify_columns({"time", "energy"}, "ts.csv"),
                       "ts.csv: the header has no column 't'; is it a noether time series?", std::invalid_argument);
}

TEST_CASE("an actuator's torque and tracking error are drawn in figures of their own, not as probe coordinates") {
  const PlotData data = read(
      "t,q:a.x,tip.x,actuator:m.x,tracking_error:m.x,energy\n"
      "0,1,5,2.5,0,1\n"
      "0.1,1,5,3.5,0.01,1\n");
  const PlotFigure* probes = figure(data, "probes");
  REQUIRE(probes);
  REQUIRE(probes->lines.size() == 1);
  CHECK(probes->lines[0].legend == "tip.x");
  const PlotFigure* actuators = figure(data, "actuators");
  REQUIRE(actuators);
  REQUIRE(actuators->lines.size() == 1);
  CHECK(actuators->lines[0].legend == "actuator:m.x");
  const PlotFigure* tracking = figure(data, "tracking");
  REQUIRE(tracking);
  REQUIRE(tracking->lines.size() == 1);
  CHECK(tracking->lines[0].legend == "tracking_error:m.x");
}

TEST_CASE(
    "the energy error is relative to the first energy, max |g| is taken over the constraint rows, momenta change from "
    "the first row") {
  const PlotData data = read(
      "t,q:a.x,tip.x,energy,total_energy,g:j[0],g:j[1],h,linear_momentum.x\n"
      "0,1,5,2,0,0,0,nan,3\n"
      "0.5,1,6,2.002,1e-6,1e-9,-2e-8,0.5,3.25\n"
      "1,1,7,1.998,-1e-6,-4e-12,1e-13,0.5,2.5\n");
  CHECK(data.rows == 3);
  CHECK_FALSE(data.last_line_incomplete);

  const PlotFigure* energy = figure(data, "energy");
  REQUIRE(energy != nullptr);
  REQUIRE(energy->lines.size() == 2);
  const std::vector<double>& e = line_values(data, *energy, 0);
  CHECK(e[0] == 0);
  CHECK(e[1] == doctest::Approx(1e-3).epsilon(1e-9));
  CHECK(e[2] == doctest::Approx(-1e-3).epsilon(1e-9));
  CHECK(energy->lines[0].legend == "energy: (E - E0) / |E0|, E0 = 2");
  // total_energy starts at 0: its error is absolute.
  CHECK(line_values(data, *energy, 1)[1] == 1e-6);
  CHECK(energy->lines[1].legend == "total_energy: E - E0, E0 = 0");

  const PlotFigure* constraints = figure(data, "constraints");
  REQUIRE(constraints != nullptr);
  CHECK(constraints->log_y);
  CHECK(line_values(data, *constraints, 0) == std::vector<double>{0, 2e-8, 4e-12});
  CHECK(constraints->y_min == 4e-12);  // the zero of the first row has no place on a log scale
  CHECK(constraints->title == "constraint residual, max over 2 equations");

  const PlotFigure* momenta = figure(data, "momenta");
  REQUIRE(momenta != nullptr);
  CHECK(line_values(data, *momenta, 0) == std::vector<double>{0, 0.25, -0.5});
  CHECK(momenta->lines[0].legend == "linear_momentum.x - 3");

  const PlotFigure* probes = figure(data, "probes");
  REQUIRE(probes != nullptr);
  CHECK(line_values(data, *probes, 0) == std::vector<double>{5, 6, 7});
  CHECK(figure(data, "step_size") == nullptr);  // h did not vary
}

TEST_CASE(
    "the energy of sem-vi's initial row (nan) is left out, a varying h is drawn, residuals that are all 0 on a linear "
    "scale") {
  const PlotData data = read(
      "t,energy,g:j[0],h\n"
      "0,nan,0,nan\n"
      "0.1,4,0,0.1\n"
      "0.3,4.004,0,0.2\n"
      "0.4,3.996,0,0.1\n");
  const PlotFigure* energy = figure(data, "energy");
  REQUIRE(energy != nullptr);
  const std::vector<double>& e = line_values(data, *energy, 0);
  CHECK(std::isnan(e[0]));
  CHECK(e[1] == 0);
  CHECK(e[2] == doctest::Approx(1e-3).epsilon(1e-9));
  const PlotFigure* constraints = figure(data, "constraints");
  REQUIRE(constraints != nullptr);
  CHECK_FALSE(constraints->log_y);
  CHECK(constraints->y_min == 0);
  CHECK(constraints->y_max == 0);
  const PlotFigure* step = figure(data, "step_size");
  REQUIRE(step != nullptr);
  CHECK_FALSE(step->log_y);  // within a decade
  CHECK(step->y_min == 0.1);
  CHECK(step->y_max == 0.2);
}

TEST_CASE(
    "a run whose elements do work: its energy change is drawn beside the work, on the energy's scale, and the "
    "balance's residual in a figure of its own") {
  // A damped run: E falls by the work W (negative); the balance E(n+1) - E(n) - W(n) is rounding.
  const PlotData data = read(
      "t,energy,total_energy,work,energy_balance\n"
      "0,2,2,0,nan\n"
      "0.5,1.5,1.5,-0.5,1e-15\n"
      "1,1.2,1.2,-0.8,-3e-17\n");
  const PlotFigure* energy = figure(data, "energy");
  REQUIRE(energy != nullptr);
  CHECK(energy->title == "energy change from the initial state, and the work done on the system (dampers, loads): the "
                         "change they cause");
  REQUIRE(energy->lines.size() == 3);
  CHECK(energy->lines[2].legend == "work done on the system: W / |E0|");
  CHECK(line_values(data, *energy, 2) == line_values(data, *energy, 0));  // (E - E0)/|E0| = W/|E0| here
  CHECK(line_values(data, *energy, 2)[2] == doctest::Approx(-0.4));
  const PlotFigure* balance = figure(data, "energy_balance");
  REQUIRE(balance != nullptr);
  CHECK(balance->log_y);
  const std::vector<double>& b = line_values(data, *balance, 0);
  CHECK(std::isnan(b[0]));
  CHECK(b[1] == 1e-15);
  CHECK(b[2] == 3e-17);  // its magnitude

  // A conservative run (work all 0) keeps the title that calls the change an error, and no balance figure.
  const PlotData conservative = read("t,energy,work,energy_balance\n0,2,0,nan\n1,2.001,0,0.001\n");
  const PlotFigure* e = figure(conservative, "energy");
  REQUIRE(e != nullptr);
  CHECK(e->title == "energy change from the initial state (the error of a conservative run)");
  CHECK(e->lines.size() == 1);
  CHECK(figure(conservative, "energy_balance") == nullptr);
}

TEST_CASE("a relative energy error is not taken where the first energy is tiny against the run's") {
  const PlotData data = read("t,energy\n0,1e-9\n1,2\n");
  const PlotFigure* energy = figure(data, "energy");
  REQUIRE(energy != nullptr);
  CHECK(energy->lines[0].legend == "energy: E - E0, E0 = 1e-09");
  CHECK(line_values(data, *energy, 0)[1] == doctest::Approx(2 - 1e-9));
}

TEST_CASE("a last line without newline (a run still writing) is left out, and other lines must be whole rows of numbers") {
  const PlotData data = read("t,energy\n0,1\n0.1,1\n0.2,");
  CHECK(data.rows == 2);
  CHECK(data.last_line_incomplete);
  CHECK(read_error("t,energy\n0,1\n0.1\n") == "ts.csv line 3: 1 cells, the header has 2");
  CHECK(read_error("t,energy\n0,1\n0.1,one\n") == "ts.csv line 3: 'one' is not a number");
  CHECK(read_error("t,energy\n") == "ts.csv: no rows to plot yet");
  CHECK(read_error("") == "ts.csv: no header line");
}

TEST_CASE("the data file has a column per series, NaN where undefined or infinite") {
  const PlotData data = read("t,energy,g:j[0]\n0,1,0\n1,inf,-0.5\n");
  CHECK(plot_data_text(data) == "# t energy_error constraint_max_abs\n0\t0\t0\n1\tNaN\t0.5\n");
}

TEST_CASE("texts reach gnuplot quoted: a quote doubled, control characters made spaces") {
  CHECK(gnuplot_quoted("it's") == "'it''s'");
  CHECK(gnuplot_quoted("a\nb\\c") == "'a b\\c'");
  PlotData data = read("t,energy,x'y\n0,1,2\n1,1.5,3\n");
  const std::string script = gnuplot_script(data, "plot_data.tsv", "scene 'q'\nsystem(\"rm\")");
  CHECK(script.find("set title 'scene ''q'' system(\"rm\")' . \"\\n\" . 'energy change from the initial state (the "
                    "error of a conservative run)'\n") != std::string::npos);
  CHECK(script.find("title 'x''y'\n") != std::string::npos);
  CHECK(script.find("set output 'probes.svg.tmp'\n") != std::string::npos);
  CHECK(script.find("set output 'probes.png.tmp'\nreplot\n") != std::string::npos);
}

TEST_CASE(
    "a long series is thinned to its envelope: no extreme is lost, the time of a value moves by less than a bucket") {
  std::string csv = "t,energy,g:j[0]\n";
  for (int n = 0; n < 10; ++n) csv += std::to_string(n) + ",1," + (n == 3 ? "1e-9" : n == 6 ? "nan" : "1e-16") + "\n";
  PlotData data = read(csv);
  thin_to_envelope(data, 4);  // 2 buckets of 5 rows
  CHECK(data.rows == 10);
  CHECK(data.columns[0] == std::vector<double>{0, 4, 5, 9});
  CHECK(data.columns[2] == std::vector<double>{1e-16, 1e-9, 1e-16, 1e-16});  // the spike at row 3 kept, the nan skipped
  // One bucket: energy's relative error from 0 to 2; total_energy has no number, its bucket is NaN.
  PlotData one_bucket = read("t,energy,total_energy\n0,1,nan\n1,2,nan\n2,3,nan\n");
  thin_to_envelope(one_bucket, 2);
  CHECK(one_bucket.columns[0] == std::vector<double>{0, 2});
  CHECK(one_bucket.columns[1] == std::vector<double>{0, 2});
  CHECK(std::isnan(one_bucket.columns[2][0]));
  CHECK(std::isnan(one_bucket.columns[2][1]));
  PlotData short_data = read("t,energy\n0,1\n1,2\n");
  thin_to_envelope(short_data, 4);
  CHECK(short_data.columns[0].size() == 2);
}
