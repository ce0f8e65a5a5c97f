#pragma once
/// summary.json: the RunResult as one JSON object (docs/output.md lists the keys).
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>

namespace noether {

/// The keys of docs/output.md in its order, starting with status and timeseries; error only when
/// !ok, failure only when failed, interrupted_by only when interrupted, scene only for a scene run.
/// Quantities never computed (NaN) become null.
nlohmann::ordered_json summary_json(const RunResult& result);

/// One of the evaluation counts (`count`: residuals or with_matrix) as summary.json and
/// checkpoint.json write it: the number, or null when the run did not keep them
/// (RunResult::newton_evaluations).
nlohmann::ordered_json count_or_null(const std::optional<RunResult::NewtonEvaluations>& counts,
                                     std::int64_t RunResult::NewtonEvaluations::*count);

}  // namespace noether
