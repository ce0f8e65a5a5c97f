#include <noether/apps/timeseries_csv.hpp>

#include <array>
#include <charconv>
#include <functional>

#include <noether/apps/model/output_columns.hpp>
#include <noether/apps/reaction_columns.hpp>

namespace noether {

namespace {

/// Characters format_double writes at most (17 digits, sign, point, exponent, with room to spare).
constexpr std::size_t kDoubleChars = 32;

/// Writes format_double's text of value at `begin` (kDoubleChars free); returns its end.
char* put_double(char* begin, double value) {
  return std::to_chars(begin, begin + kDoubleChars, value, std::chars_format::general, 17).ptr;
}

}  // namespace

std::string format_double(double value) {
  std::array<char, kDoubleChars> buffer{};
  return std::string(buffer.data(), put_double(buffer.data(), value));
}

void for_each_timeseries_column(const OutputLabels& labels, std::span<const Probe> probes,
                                const ConservedMomenta& momenta, bool condition_column,
                                std::span<const std::string> reaction_columns,
                                const std::function<void(std::string_view)>& column) {
  // A prefixed label is made in one buffer: the header names every coordinate and every row.
  auto prefixed = [&column, text = std::string()](std::string_view prefix, std::string_view label) mutable {
    text.assign(prefix).append(label);
    column(text);
  };
  column("t");
  labels.for_each_coordinate([&](const std::string& label) { prefixed(kCoordinateColumnPrefix, label); });
  for (const Probe& probe : probes)
    for (Index d = 0; d < probe.dimension; ++d) column(probe_column(probe.name, d));
  for (const char* name : {"energy", "total_energy", "work", "energy_balance"}) column(name);
  labels.for_each_constraint_row([&](const std::string& label) { prefixed("g:", label); });
  column("h");
  if (condition_column) column("condition");
  for (const std::string& name : momenta.names()) column(name);
  for (const std::string& name : reaction_columns) column(name);
}

std::vector<std::string> timeseries_columns(const System& system, std::span<const Probe> probes,
                                            const ConservedMomenta& momenta, bool condition_column,
                                            bool reaction_columns) {
  std::vector<std::string> columns;
  const std::vector<std::string> reactions =
      reaction_columns ? ReactionColumns(system, system).labels() : std::vector<std::string>();
  for_each_timeseries_column(SystemLabels(system), probes, momenta, condition_column, reactions,
                             [&](std::string_view name) { columns.emplace_back(name); });
  return columns;
}

TimeseriesCsv::TimeseriesCsv(const OutputDirectory& directory, const OutputLabels& labels,
                             std::span<const Probe> probes, const ConservedMomenta& momenta, bool condition_column,
                             std::span<const std::string> reaction_columns)
    : condition_column_(condition_column), file_(directory, kPartialFileName, kFileName) {
  bool first = true;  // the header is handed to the file column by column, a record as a row is
  for_each_timeseries_column(labels, probes, momenta, condition_column, reaction_columns, [&](std::string_view name) {
    if (!first) file_.append(",");
    file_.append(name);
    file_.flush_within_record();
    first = false;
  });
  file_.append("\n");
  file_.flush();  // a reader of the partial file sees the columns from the start
}

TimeseriesCsv::TimeseriesCsv(const OutputDirectory& directory, std::uint64_t length, bool condition_column)
    : condition_column_(condition_column), file_(directory, kPartialFileName, kFileName, length) {}

void TimeseriesCsv::write_row(const State& state, ConstVectorRef g, const RowMeasures& measures,
                              const RowValues& values) {
  const auto each = [](ConstVectorRef vector) {
    return [vector](const std::function<void(double)>& value) {
      for (Index i = 0; i < vector.size(); ++i) value(vector(i));
    };
  };
  write_row(state.t, each(state.q), each(g), measures, values);
}

void TimeseriesCsv::write_row(double t, const ValueSource& q, const ValueSource& g, const RowMeasures& measures,
                              const RowValues& values) {
  const auto written = [this](double x) { write_value(x); };
  write_value(t);
  q(written);
  for (const Vector& position : values.probes)
    for (Index d = 0; d < position.size(); ++d) write_value(position(d));
  write_value(measures.energy);
  write_value(values.total_energy);
  write_value(measures.work);
  write_value(measures.balance);
  g(written);
  write_value(measures.h);
  if (condition_column_) write_value(measures.condition);
  for (double value : values.momenta) write_value(value);
  for (double value : values.reactions) write_value(value);
  end_row();
}

void TimeseriesCsv::commit() {
  file_.commit();
  committed_ = true;
}

std::uint64_t TimeseriesCsv::sync() {
  file_.sync();
  return file_.bytes_flushed();
}

void TimeseriesCsv::write_value(double value) {
  // Written in place: a row holds a value per coordinate, and a string per value would cost an
  // allocation each.
  std::array<char, kDoubleChars + 1> buffer{};
  char* begin = buffer.data();
  if (row_started_) *begin++ = ',';
  const char* end = put_double(begin, value);
  file_.append(std::string_view(buffer.data(), static_cast<std::size_t>(end - buffer.data())));
  row_started_ = true;
  file_.flush_within_record();
}

void TimeseriesCsv::end_row() {
  file_.append("\n");
  row_started_ = false;
  file_.flush_if_due();
}

}  // namespace noether
