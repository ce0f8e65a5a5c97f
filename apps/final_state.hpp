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
/// The same text handed to `write` in pieces of about 64 KB, in order: the file is written without
/// a string of the model's size (a label and a value of every coordinate, four times) in memory.
/// The labels are the whole model's (labels), the probes' positions given (one per probe).
void write_final_state_json(const OutputLabels& labels, const State& state, std::span<const Probe> probes,
                            std::span<const Vector> positions, const FinalStateWriter& write);

}  // namespace noether
