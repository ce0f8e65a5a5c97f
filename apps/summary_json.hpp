#pragma once
/// summary.json: the RunResult as one JSON object (docs/output.md lists the keys).
#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>

namespace noether {

/// The keys of docs/output.md in its order, starting with status and timeseries; error only when
/// !ok, failure only when failed, interrupted_by only when interrupted, scene only for a scene run.
/// Quantities never computed (NaN) become null.
nlohmann::ordered_json summary_json(const RunResult& result);

}  // namespace noether
