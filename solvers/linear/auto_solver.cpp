/// The back-end chosen by the matrix (auto_solver.hpp).
#include <noether/solvers/linear/auto_solver.hpp>

#include <algorithm>
#include <cmath>

#include <noether/engine/format.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>

namespace noether {
namespace {

/// The ordering MUMPS takes for the one AutoSolver was given: nd as given; the orderings MUMPS
/// does not take (amd, colamd: klu's and umfpack's) leave MUMPS its own rule.
FillOrdering mumps_ordering(FillOrdering ordering) {
  return ordering == FillOrdering::nested_dissection ? ordering : FillOrdering::automatic;
}

}  // namespace

void AutoSolver::analyze_pattern(const CscPattern& pattern) {
  pattern_ = &pattern;
  active_ = std::make_unique<KluSolver>(ordering_);
  active_->analyze_pattern(pattern);
  chosen_ = false;
}

LinearSolver& AutoSolver::active() {
  if (!active_) throw LinearSolverError("auto: factorize or solve called before analyze_pattern");
  return *active_;
}

FactorizationStatus AutoSolver::factorize(std::span<const double> values) {
  if (!chosen_) return choose(values);
  return active().factorize(values);
}

FactorizationStatus AutoSolver::choose(std::span<const double> values) {
  if (active().kind() != LinearSolverKind::klu) {  // after forget_factorization: KLU factors first again
    active_ = std::make_unique<KluSolver>(ordering_);
    active_->analyze_pattern(*pattern_);
  }
  const FactorizationStatus klu_status = active_->factorize(values);
  if (!klu_status.ok) return klu_status;
  profile_ = active_->factorization_profile();
  profile_.solver = "klu";
  chosen_ = true;
  const double klu_flops = profile_.flops;
  const double per_entry = klu_flops / static_cast<double>(std::max<Index>(profile_.factor_entries, 1));
  if (klu_flops < rule_.trial_flops) {
    profile_.reason = "klu: " + format_number(klu_flops) + " flops on the first matrix, too few to try umfpack or mumps; " +
                      profile_.reason;
    return klu_status;
  }
  if (per_entry <= rule_.wide_front_flops_per_entry) {
    profile_.reason = "klu: narrow fronts (" + format_number(per_entry) + " flops per factor entry); " + profile_.reason;
    return klu_status;
  }
  std::string figures = "klu " + format_number(klu_flops) + " flops";
  const auto trial = [&](std::unique_ptr<LinearSolver> candidate, const char* name) {
    candidate->analyze_pattern(*pattern_);
    const FactorizationStatus status = candidate->factorize(values);
    const FactorizationProfile profile = candidate->factorization_profile();
    figures += std::string(", ") + name + " " + (status.ok ? format_number(profile.flops) + " flops" : "failed");
    if (!status.ok || !(profile.flops * rule_.margin < profile_.flops)) return;
    active_ = std::move(candidate);  // the fewest flops so far; the one it replaces is freed
    profile_ = profile;
    profile_.solver = name;
  };
  trial(std::make_unique<UmfpackSolver>(ordering_), "umfpack");
  if (rule_.try_mumps && linear_solver_built(LinearSolverKind::mumps))
    trial(make_linear_solver(LinearSolverKind::mumps, mumps_ordering(ordering_)), "mumps");
  profile_.reason = profile_.solver + ": wide fronts, and " + figures + " on the first matrix; " + profile_.reason;
  return {};
}

void AutoSolver::solve(std::span<const double> b, std::span<double> x) { active().solve(b, x); }

void AutoSolver::solve_transposed(std::span<const double> b, std::span<double> x) { active().solve_transposed(b, x); }

void AutoSolver::forget_factorization() {
  if (active_) active_->forget_factorization();
  chosen_ = false;
}

}  // namespace noether
