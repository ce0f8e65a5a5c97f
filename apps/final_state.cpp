#include <noether/apps/final_state.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <noether/apps/timeseries_csv.hpp>
#include <vector>

namespace noether {
namespace {

/// A JSON number of 17 significant digits (nlohmann would write the shortest that reads back),
/// null when value is not finite.
std::string number(double value) { return std::isfinite(value) ? format_double(value) : "null"; }

/// Text handed on in pieces of about kPieceBytes, so that no string of the model's size is built.
class Pieces {
 public:
  explicit Pieces(const FinalStateWriter& write) : write_(write) {}
  void add(std::string_view text) {
    text_ += text;
    if (text_.size() >= kPieceBytes) flush();
  }
  void flush() {
    if (!text_.empty()) write_(text_);
    text_.clear();
  }

 private:
  static constexpr std::size_t kPieceBytes = std::size_t{1} << 16;
  const FinalStateWriter& write_;
  std::string text_;
};

/// text as the JSON string nlohmann::json(text).dump() writes, without a JSON value for each of a
/// model's labels: text of printable ASCII other than \" and \\ (a label's, as a rule) as it is
/// between quotes; any other through nlohmann (its escapes, its check of UTF-8).
void add_json_string(Pieces& out, const std::string& text) {
  const bool as_it_is = std::ranges::all_of(text, [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (!as_it_is) return out.add(nlohmann::json(text).dump());
  out.add("\"");
  out.add(text);
  out.add("\"");
}

/// "  \"key\": {\n    \"label\": value, ...\n  }" over the labels that for_each gives (JSON strings) and
/// values (null where values has no entry).
template <class ForEach>
void named_values(Pieces& out, std::string_view key, ForEach for_each, const Vector& values) {
  out.add("  \"");
  out.add(key);
  out.add("\": {");
  Index i = 0;
  for_each([&](const std::string& label) {
    out.add(i == 0 ? "\n    " : ",\n    ");
    add_json_string(out, label);
    out.add(": ");
    out.add(i < values.size() ? number(values(i)) : "null");
    ++i;
  });
  out.add(i == 0 ? "}" : "\n  }");
}

/// "  \"probes\": {\n    \"name\": [x, y], ...\n  }" of the positions given.
void probe_positions(Pieces& out, std::span<const Probe> probes, std::span<const Vector> positions) {
  out.add("  \"probes\": {");
  for (std::size_t i = 0; i < probes.size(); ++i) {
    out.add(i == 0 ? "\n    " : ",\n    ");
    out.add(nlohmann::json(probes[i].name).dump() + ": [");
    const Vector& position = positions[i];
    for (Index d = 0; d < position.size(); ++d) out.add((d == 0 ? "" : ", ") + number(position(d)));
    out.add("]");
  }
  out.add(probes.empty() ? "}" : "\n  }");
}

}  // namespace

void write_final_state_json(const OutputLabels& labels, const State& state, std::span<const Probe> probes,
                            std::span<const Vector> positions, const FinalStateWriter& write) {
  Pieces out(write);
  const auto coordinates = [&](const OutputLabels::Visit& visit) { labels.for_each_coordinate(visit); };
  out.add("{\n  \"step\": " + std::to_string(state.step) + ",\n  \"t\": " + number(state.t) + ",\n");
  named_values(out, "q", coordinates, state.q);
  out.add(",\n");
  named_values(out, "v", coordinates, state.v);
  out.add(",\n");
  named_values(out, "p", coordinates, state.p);
  out.add(",\n");
  named_values(out, "lambda", [&](const OutputLabels::Visit& visit) { labels.for_each_constraint_row(visit); },
               state.lambda);
  out.add(",\n  \"discrete_energy\": " + number(state.discrete_energy) + ",\n");
  probe_positions(out, probes, positions);
  out.add("\n}\n");
  out.flush();
}

std::string final_state_json(const System& system, const State& state, std::span<const Probe> probes) {
  std::vector<Vector> positions;
  for (const Probe& probe : probes) positions.push_back(probe.position(state));
  std::string text;
  write_final_state_json(SystemLabels(system), state, probes, positions,
                         [&](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace noether
