#include <noether/apps/final_state.hpp>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/timeseries_csv.hpp>

namespace noether {
namespace {

/// A JSON number of 17 significant digits (nlohmann would write the shortest that reads back),
/// null when value is not finite.
std::string number(double value) { return std::isfinite(value) ? format_double(value) : "null"; }

/// "  \"key\": {\n    \"label\": value, ...\n  }" over labels and values (null where values has
/// no entry).
std::string named_values(const std::string& key, const std::vector<std::string>& labels, const Vector& values) {
  std::string text = "  \"" + key + "\": {";
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto at = static_cast<Index>(i);
    text += i == 0 ? "\n    " : ",\n    ";
    text += labels[i];
    text += ": ";
    text += at < values.size() ? number(values(at)) : "null";
  }
  return text + (labels.empty() ? "}" : "\n  }");
}

/// Each label as a JSON string.
std::vector<std::string> quoted(std::vector<std::string> labels) {
  for (std::string& label : labels) label = nlohmann::json(label).dump();
  return labels;
}

/// "<block>.<coordinate>" for every coordinate, in order.
std::vector<std::string> coordinate_labels(const System& system) {
  std::vector<std::string> labels;
  for (Index i = 0; i < system.num_coordinates(); ++i) labels.push_back(system.coordinate_label(i));
  return labels;
}

/// "  \"probes\": {\n    \"name\": [x, y], ...\n  }" at state.
std::string probe_positions(std::span<const Probe> probes, const State& state) {
  std::string text = "  \"probes\": {";
  for (std::size_t i = 0; i < probes.size(); ++i) {
    text += i == 0 ? "\n    " : ",\n    ";
    text += nlohmann::json(probes[i].name).dump() + ": [";
    const Vector position = probes[i].position(state);
    for (Index d = 0; d < position.size(); ++d) text += (d == 0 ? "" : ", ") + number(position(d));
    text += "]";
  }
  return text + (probes.empty() ? "}" : "\n  }");
}

}  // namespace

std::string final_state_json(const System& system, const State& state, std::span<const Probe> probes) {
  const std::vector<std::string> coordinates = quoted(coordinate_labels(system));
  return "{\n  \"step\": " + std::to_string(state.step) + ",\n  \"t\": " + number(state.t) + ",\n" +
         named_values("q", coordinates, state.q) + ",\n" + named_values("v", coordinates, state.v) + ",\n" +
         named_values("p", coordinates, state.p) + ",\n" +
         named_values("lambda", quoted(constraint_row_labels(system)), state.lambda) +
         ",\n  \"discrete_energy\": " + number(state.discrete_energy) + ",\n" + probe_positions(probes, state) +
         "\n}\n";
}

}  // namespace noether
