#pragma once
/// The human-readable end-of-run summary: one aligned "key  value" line per summary field.
#include <ostream>

#include <noether/apps/runner.hpp>

namespace noether {

/// Keys as in summary.json; error only when the run failed.
void print_summary(std::ostream& out, const RunOutcome& outcome);

}  // namespace noether
