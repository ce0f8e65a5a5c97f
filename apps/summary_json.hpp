#pragma once
/// summary.json: the RunOutcome as one JSON object (docs/output.md lists the keys).
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>

namespace noether {

/// The keys of docs/output.md in its order, starting with status and timeseries; error only when
/// !ok, failure only when failed, interrupted_by only when interrupted, scene only for a scene run.
/// Quantities never computed (NaN) become null.
nlohmann::ordered_json summary_json(const RunOutcome& outcome);

/// One of the evaluation counts (`count`: residuals or with_matrix) as summary.json and
/// checkpoint.json write it: the number, or null when the run did not keep them
/// (RunStatistics::newton_evaluations).
nlohmann::ordered_json count_or_null(const std::optional<RunStatistics::NewtonEvaluations>& counts,
                                     std::int64_t RunStatistics::NewtonEvaluations::*count);

}  // namespace noether
