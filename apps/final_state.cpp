#include <noether/apps/final_state.hpp>

#include <cmath>
#include <string>
#include <string_view>

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

/// "  \"key\": {\n    \"label\": value, ...\n  }" over the n labels that label(i) gives (JSON strings)
/// and values (null where values has no entry).
template <class Label>
void named_values(Pieces& out, std::string_view key, Index n, Label label, const Vector& values) {
  out.add("  \"");
  out.add(key);
  out.add("\": {");
  for (Index i = 0; i < n; ++i) {
    out.add(i == 0 ? "\n    " : ",\n    ");
    out.add(nlohmann::json(label(i)).dump());
    out.add(": ");
    out.add(i < values.size() ? number(values(i)) : "null");
  }
  out.add(n == 0 ? "}" : "\n  }");
}

/// "  \"probes\": {\n    \"name\": [x, y], ...\n  }" at state.
void probe_positions(Pieces& out, std::span<const Probe> probes, const State& state) {
  out.add("  \"probes\": {");
  for (std::size_t i = 0; i < probes.size(); ++i) {
    out.add(i == 0 ? "\n    " : ",\n    ");
    out.add(nlohmann::json(probes[i].name).dump() + ": [");
    const Vector position = probes[i].position(state);
    for (Index d = 0; d < position.size(); ++d) out.add((d == 0 ? "" : ", ") + number(position(d)));
    out.add("]");
  }
  out.add(probes.empty() ? "}" : "\n  }");
}

/// The label of each constraint row (constraint_row_label), by walking the constraints once.
class ConstraintRowLabels {
 public:
  explicit ConstraintRowLabels(const System& system) : constraints_(system.constraints()) {}
  /// Rows are asked for in increasing order.
  std::string operator()(Index row) {
    while (row >= first_ + constraints_[next_].element->num_equations()) first_ += constraints_[next_++].element->num_equations();
    return constraint_row_label(*constraints_[next_].element, row - first_);
  }

 private:
  std::span<const Placed<Constraint>> constraints_;
  std::size_t next_ = 0;
  Index first_ = 0;  ///< the first row of constraints_[next_]
};

}  // namespace

void write_final_state_json(const System& system, const State& state, std::span<const Probe> probes,
                            const FinalStateWriter& write) {
  Pieces out(write);
  const auto coordinate = [&](Index i) { return system.coordinate_label(i); };
  out.add("{\n  \"step\": " + std::to_string(state.step) + ",\n  \"t\": " + number(state.t) + ",\n");
  named_values(out, "q", system.num_coordinates(), coordinate, state.q);
  out.add(",\n");
  named_values(out, "v", system.num_coordinates(), coordinate, state.v);
  out.add(",\n");
  named_values(out, "p", system.num_coordinates(), coordinate, state.p);
  out.add(",\n");
  named_values(out, "lambda", system.num_multipliers(), ConstraintRowLabels(system), state.lambda);
  out.add(",\n  \"discrete_energy\": " + number(state.discrete_energy) + ",\n");
  probe_positions(out, probes, state);
  out.add("\n}\n");
  out.flush();
}

std::string final_state_json(const System& system, const State& state, std::span<const Probe> probes) {
  std::string text;
  write_final_state_json(system, state, probes, [&](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace noether
