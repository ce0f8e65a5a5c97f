#include "solvers/klu_solver.hpp"

#include <algorithm>

namespace noether {
namespace {

/// A refactorization whose cheap condition estimate min|U_ii| / max|U_ii| falls below this
/// fraction of the one of the last fresh (pivoting) factorization is redone with pivoting: the old
/// pivot sequence has gone bad for the new values.
constexpr double kMaxConditionDeterioration = 1e-3;

/// KLU only reads the values; its interface takes them non-const.
double* klu_values(std::span<const double> values) { return const_cast<double*>(values.data()); }

std::string klu_status(const klu_common& common) {
  switch (common.status) {
    case KLU_SINGULAR: return "the matrix is singular";
    case KLU_OUT_OF_MEMORY: return "out of memory";
    case KLU_INVALID: return "invalid matrix";
    case KLU_TOO_LARGE: return "matrix too large";
    default: return "KLU status " + std::to_string(common.status);
  }
}

}  // namespace

KluSolver::KluSolver() {
  klu_defaults(&common_);
  common_.ordering = 1;  // COLAMD: the Newton matrices are saddle points with a zero diagonal block, where
                         // AMD on A + A^T (the default) assumes diagonal pivots and fills in badly
}

KluSolver::~KluSolver() {
  free_numeric();
  if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
}

void KluSolver::free_numeric() {
  if (numeric_) klu_free_numeric(&numeric_, &common_);
  numeric_ = nullptr;
  factorized_ = false;
}

void KluSolver::analyze_pattern(const CscPattern& pattern) {
  free_numeric();
  if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
  pattern_ = &pattern;
  column_starts_ = pattern.column_starts;
  row_indices_ = pattern.row_indices;
  symbolic_ = klu_analyze(pattern.n, column_starts_.data(), row_indices_.data(), &common_);
  if (!symbolic_) throw LinearSolverError("klu: symbolic analysis failed: " + klu_status(common_));
}

FactorizationStatus KluSolver::factor_fresh(std::span<const double> values) {
  free_numeric();
  numeric_ = klu_factor(column_starts_.data(), row_indices_.data(), klu_values(values), symbolic_, &common_);
  if (!numeric_ || common_.status == KLU_SINGULAR) {
    free_numeric();
    if (common_.status == KLU_OUT_OF_MEMORY) throw LinearSolverError("klu: out of memory in factorization");
    return {false, "klu: " + klu_status(common_)};
  }
  klu_rcond(symbolic_, numeric_, &common_);
  fresh_rcond_ = common_.rcond;
  factorized_ = true;
  return {};
}

FactorizationStatus KluSolver::factorize(std::span<const double> values) {
  if (!symbolic_) throw LinearSolverError("klu: factorize called before analyze_pattern");
  if (values.size() != row_indices_.size())
    throw LinearSolverError("klu: expected " + std::to_string(row_indices_.size()) + " values, got " +
                            std::to_string(values.size()));
  if (!numeric_) return factor_fresh(values);
  const bool refactored = klu_refactor(column_starts_.data(), row_indices_.data(), klu_values(values), symbolic_,
                                       numeric_, &common_) != 0;
  const bool pivots_fine = refactored && klu_rcond(symbolic_, numeric_, &common_) != 0 &&
                           common_.rcond > kMaxConditionDeterioration * fresh_rcond_;
  if (!pivots_fine) return factor_fresh(values);
  ++refactorizations_;
  factorized_ = true;
  return {};
}

void KluSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("klu: solve called without a successful factorization");
  check_solve_sizes("klu", pattern_->n, b, x);
  std::copy(b.begin(), b.end(), x.begin());
  if (!klu_solve(symbolic_, numeric_, pattern_->n, 1, x.data(), &common_))
    throw LinearSolverError("klu: solve failed: " + klu_status(common_));
}

}  // namespace noether
