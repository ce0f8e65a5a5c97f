#include <noether/apps/final_state.hpp>

#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

#include <noether/apps/timeseries_csv.hpp>

namespace noether {
namespace {

/// A JSON number of 17 significant digits (nlohmann would write the shortest that reads back),
/// null when value is not finite.
std::string number(double value) { return std::isfinite(value) ? format_double(value) : "null"; }

/// "  \"key\": {\n    \"label\": value, ...\n  }" over the n entries label(i): values(i) (null
/// where values has no entry i).
std::string named_values(const std::string& key, Index n, const std::function<std::string(Index)>& label,
                         const Vector& values) {
  std::string text = "  " + nlohmann::json(key).dump() + ": {";
  for (Index i = 0; i < n; ++i)
    text += std::string(i == 0 ? "\n" : ",\n") + "    " + nlohmann::json(label(i)).dump() + ": " +
            (i < values.size() ? number(values(i)) : "null");
  return text + (n == 0 ? "}" : "\n  }");
}

}  // namespace

std::string final_state_json(const System& system, const State& state) {
  const auto coordinate = [&](Index i) { return system.coordinate_label(i); };
  const std::vector<std::string> rows = constraint_row_labels(system);
  const auto multiplier = [&](Index i) { return rows.at(static_cast<std::size_t>(i)); };
  const Index n = system.num_coordinates();
  return "{\n  \"step\": " + std::to_string(state.step) + ",\n  \"t\": " + number(state.t) + ",\n" +
         named_values("q", n, coordinate, state.q) + ",\n" + named_values("v", n, coordinate, state.v) + ",\n" +
         named_values("p", n, coordinate, state.p) + ",\n" +
         named_values("lambda", static_cast<Index>(rows.size()), multiplier, state.lambda) +
         ",\n  \"discrete_energy\": " + number(state.discrete_energy) + "\n}\n";
}

}  // namespace noether
