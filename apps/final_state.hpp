#pragma once
/// final_state.json: the state a run ended with, to restart from or to read the end of a motion
/// without a time series row per step (docs/output.md, "final_state.json").
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include <noether/apps/model/model.hpp>
#include <noether/apps/output_labels.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>

namespace noether {

/// The file name in the output directory.
inline constexpr const char* kFinalStateFileName = "final_state.json";

/// One JSON object: "step", "t", then "q", "v", "p" (objects from the coordinate labels of system,
/// "<block>.<coordinate>", to the values), "lambda" (from "<constraint>[<row>]" over system's
/// constraint rows, the equations stepped, to the multipliers), "discrete_energy" (sem-vi's E_k,
/// null for the other steppers) and "probes" (each probe's name to its position at state, an array
/// of its components). Every number in 17 significant digits ("%.17g", read back to the same
/// double); a value that is not finite is null. state's vectors must have system's sizes
/// (num_coordinates(), num_multipliers()).
std::string final_state_json(const System& system, const State& state, std::span<const Probe> probes);

/// Receives the text of final_state.json piece by piece.
using FinalStateWriter = std::function<void(std::string_view)>;

/// The entries final_state.json lists, in the whole model's order: a source that need not hold
/// them all at once (over parts, RunParts::state_entries brings them to rank 0 a range at a time).
class StateEntries {
 public:
  enum class Kind { q, v, p, lambda };
  using Visit = std::function<void(const std::string& label, double value)>;
  virtual ~StateEntries() = default;
  /// Each coordinate's label with its value of q, v or p, or each constraint row's label with its
  /// multiplier (lambda), in order; NaN for a value the state does not have (written null).
  /// write_final_state_json asks for q, v, p and lambda, in this order, once each.
  virtual void for_each(Kind kind, const Visit& visit) const = 0;
};

/// The entries of a whole state under labels (the whole model's).
class LabelledState final : public StateEntries {
 public:
  LabelledState(const OutputLabels& labels, const State& state) : labels_(labels), state_(state) {}
  void for_each(Kind kind, const Visit& visit) const override;

 private:
  const OutputLabels& labels_;
  const State& state_;
};

/// The same text handed to `write` in pieces of about 64 KB, in order: the file is written without
/// a string of the model's size (a label and a value of every coordinate, four times) in memory.
/// step, t and discrete_energy are state's; q, v, p and lambda come from entries; the probes'
/// positions are given (one per probe).
void write_final_state_json(const StateEntries& entries, const State& state, std::span<const Probe> probes,
                            std::span<const Vector> positions, const FinalStateWriter& write);

}  // namespace noether
