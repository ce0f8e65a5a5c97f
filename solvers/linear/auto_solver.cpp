/// The back-end chosen by the matrix (auto_solver.hpp).
#include <noether/solvers/linear/auto_solver.hpp>

#include <algorithm>
#include <cmath>

#include <noether/engine/format.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>

namespace noether {

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
    profile_.reason = "klu: " + format_number(klu_flops) + " flops on the first matrix, too few to try umfpack; " +
                      profile_.reason;
    return klu_status;
  }
  if (per_entry <= rule_.wide_front_flops_per_entry) {
    profile_.reason = "klu: narrow fronts (" + format_number(per_entry) + " flops per factor entry); " + profile_.reason;
    return klu_status;
  }
  auto umfpack = std::make_unique<UmfpackSolver>(ordering_);
  umfpack->analyze_pattern(*pattern_);
  const FactorizationStatus umfpack_status = umfpack->factorize(values);
  const FactorizationProfile trial = umfpack->factorization_profile();
  const std::string figures = "klu " + format_number(klu_flops) + " flops, umfpack " +
                              (umfpack_status.ok ? format_number(trial.flops) + " flops" : "failed");
  if (umfpack_status.ok && trial.flops * rule_.umfpack_margin < klu_flops) {
    active_ = std::move(umfpack);
    profile_ = trial;
    profile_.solver = "umfpack";
    profile_.reason = "umfpack: wide fronts, and " + figures + " on the first matrix";
  } else {
    profile_.reason = "klu: " + figures + " on the first matrix; " + profile_.reason;
  }
  return {};
}

void AutoSolver::solve(std::span<const double> b, std::span<double> x) { active().solve(b, x); }

void AutoSolver::solve_transposed(std::span<const double> b, std::span<double> x) { active().solve_transposed(b, x); }

void AutoSolver::forget_factorization() {
  if (active_) active_->forget_factorization();
  chosen_ = false;
}

}  // namespace noether
