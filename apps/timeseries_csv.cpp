#include <noether/apps/timeseries_csv.hpp>

#include <array>
#include <charconv>
#include <stdexcept>

#include <noether/engine/measures.hpp>

namespace noether {

std::string format_double(double value) {
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                          std::chars_format::general, 17);
  return std::string(buffer.data(), end);
}

std::vector<std::string> timeseries_columns(const System& system, std::span<const Probe> probes,
                                            const ConservedMomenta& momenta) {
  std::vector<std::string> columns{"t"};
  for (Index i = 0; i < system.num_coordinates(); ++i) columns.push_back("q:" + system.coordinate_label(i));
  static constexpr std::array<const char*, 3> axes{"x", "y", "z"};
  for (const Probe& probe : probes)
    for (Index d = 0; d < probe.dimension; ++d)
      columns.push_back(probe.name + "." + axes.at(static_cast<std::size_t>(d)));
  columns.push_back("energy");
  columns.push_back("total_energy");
  for (const Placed<Constraint>& c : system.constraints())
    for (Index row = 0; row < c.element->num_equations(); ++row)
      columns.push_back("g:" + c.element->name() + "[" + std::to_string(row) + "]");
  for (const std::string& name : momenta.names()) columns.push_back(name);
  return columns;
}

TimeseriesCsv::TimeseriesCsv(const std::filesystem::path& path, const System& system, std::span<const Probe> probes,
                             const ConservedMomenta& momenta)
    : path_(path), system_(system), probes_(probes), momenta_(momenta), out_(path) {
  if (!out_) throw std::runtime_error("cannot open '" + path.string() + "' for writing");
  const std::vector<std::string> columns = timeseries_columns(system, probes, momenta);
  for (std::size_t i = 0; i < columns.size(); ++i) out_ << (i == 0 ? "" : ",") << columns[i];
  out_ << '\n';
}

void TimeseriesCsv::write_row(const State& state, double energy, ConstVectorRef g) {
  write_value(state.t);
  for (Index i = 0; i < state.q.size(); ++i) write_value(state.q(i));
  for (const Probe& probe : probes_) {
    const Vector position = probe.position(state);
    for (Index d = 0; d < probe.dimension; ++d) write_value(position(d));
  }
  write_value(energy);
  write_value(kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q));
  for (Index r = 0; r < g.size(); ++r) write_value(g(r));
  if (!momenta_.empty())
    for (double value : momenta_.values(momenta(system_, state.q, state.v, momenta_.about))) write_value(value);
  end_row();
}

void TimeseriesCsv::write_value(double value) {
  if (row_started_) out_ << ',';
  out_ << format_double(value);
  row_started_ = true;
}

void TimeseriesCsv::end_row() {
  out_ << '\n' << std::flush;
  row_started_ = false;
  if (!out_) throw std::runtime_error("writing '" + path_.string() + "' failed");
}

}  // namespace noether
