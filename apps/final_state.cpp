#include <noether/apps/final_state.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/timeseries_csv.hpp>

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

/// "  \"key\": {\n    \"label\": value, ...\n  }" over the entries of `kind` (labels as JSON strings).
void named_values(Pieces& out, std::string_view key, const StateEntries& entries, StateEntries::Kind kind) {
  out.add("  \"");
  out.add(key);
  out.add("\": {");
  bool first = true;
  entries.for_each(kind, [&](const std::string& label, double value) {
    out.add(first ? "\n    " : ",\n    ");
    add_json_string(out, label);
    out.add(": ");
    out.add(number(value));
    first = false;
  });
  out.add(first ? "}" : "\n  }");
}

/// values(i), NaN past its end (a state without velocities).
double entry(const Vector& values, Index i) {
  return i < values.size() ? values(i) : std::numeric_limits<double>::quiet_NaN();
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

void LabelledState::for_each(Kind kind, const Visit& visit) const {
  const Vector& values = kind == Kind::q ? state_.q : kind == Kind::v ? state_.v : kind == Kind::p ? state_.p : state_.lambda;
  Index i = 0;
  const auto labelled = [&](const std::string& label) { visit(label, entry(values, i++)); };
  if (kind == Kind::lambda) labels_.for_each_constraint_row(labelled);
  else labels_.for_each_coordinate(labelled);
}

void write_final_state_json(const StateEntries& entries, const State& state, std::span<const Probe> probes,
                            std::span<const Vector> positions, const FinalStateWriter& write) {
  using Kind = StateEntries::Kind;
  Pieces out(write);
  out.add("{\n  \"step\": " + std::to_string(state.step) + ",\n  \"t\": " + number(state.t) + ",\n");
  named_values(out, "q", entries, Kind::q);
  out.add(",\n");
  named_values(out, "v", entries, Kind::v);
  out.add(",\n");
  named_values(out, "p", entries, Kind::p);
  out.add(",\n");
  named_values(out, "lambda", entries, Kind::lambda);
  out.add(",\n  \"discrete_energy\": " + number(state.discrete_energy) + ",\n");
  probe_positions(out, probes, positions);
  out.add("\n}\n");
  out.flush();
}

std::string final_state_json(const System& system, const State& state, std::span<const Probe> probes) {
  std::vector<Vector> positions;
  for (const Probe& probe : probes) positions.push_back(probe.position(state));
  std::string text;
  const SystemLabels labels(system);
  write_final_state_json(LabelledState(labels, state), state, probes, positions,
                         [&](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace noether
