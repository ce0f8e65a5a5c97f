#pragma once
/// summary.json: the RunOutcome as one JSON object (docs/output.md lists the keys).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/runner.hpp>

namespace noether {

/// The keys of docs/output.md in its order, starting with status and timeseries; error only when
/// !ok, failure only when failed, interrupted_by only when interrupted, scene only for a scene run.
/// Quantities never computed (NaN) become null.
nlohmann::ordered_json summary_json(const RunOutcome& outcome);

/// The keys of summary.json that say what computed the outputs beside it: scenario, parameters,
/// scene and every run setting the summary gives (RunSetting::summary_key) except threads, which
/// changes no result. `noether resume` refuses a checkpoint whose options give any of them
/// another value than the summary does (read_checkpoint).
std::vector<std::string> summary_plan_keys();

/// One of the evaluation counts (`count`: residuals or with_matrix) as summary.json and
/// checkpoint.json write it: the number, or null when the run did not keep them
/// (RunStatistics::newton_evaluations).
nlohmann::ordered_json count_or_null(const std::optional<RunStatistics::NewtonEvaluations>& counts,
                                     std::int64_t RunStatistics::NewtonEvaluations::*count);

}  // namespace noether
