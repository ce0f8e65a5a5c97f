#include <noether/solvers/linear/umfpack_solver.hpp>

#include <algorithm>

#include <umfpack.h>

#include <noether/engine/format.hpp>
#include <noether/solvers/linear/nested_dissection.hpp>

namespace noether {
namespace {

std::string umfpack_status(int status) {
  switch (status) {
    case UMFPACK_WARNING_singular_matrix: return "the matrix is singular";
    case UMFPACK_ERROR_out_of_memory: return "out of memory";
    case UMFPACK_ERROR_invalid_matrix: return "invalid matrix";
    default: return "UMFPACK status " + std::to_string(status);
  }
}

FillOrdering ordering_of(UmfpackStrategy strategy) {
  switch (strategy) {
    case UmfpackStrategy::automatic: return FillOrdering::automatic;
    case UmfpackStrategy::symmetric: return FillOrdering::amd;
    case UmfpackStrategy::unsymmetric: return FillOrdering::colamd;
  }
  return FillOrdering::automatic;
}

double strategy_control(FillOrdering ordering) {
  switch (ordering) {
    case FillOrdering::automatic: return UMFPACK_STRATEGY_AUTO;
    case FillOrdering::nested_dissection:
    case FillOrdering::amd: return UMFPACK_STRATEGY_SYMMETRIC;
    case FillOrdering::colamd: return UMFPACK_STRATEGY_UNSYMMETRIC;
  }
  return UMFPACK_STRATEGY_AUTO;
}

/// The ordering UMFPACK's analysis used, by Info[UMFPACK_ORDERING_USED] and [UMFPACK_STRATEGY_USED].
std::string ordering_used(const std::vector<double>& info) {
  if (info[UMFPACK_ORDERING_USED] == UMFPACK_ORDERING_GIVEN) return "nd";
  return info[UMFPACK_STRATEGY_USED] == UMFPACK_STRATEGY_SYMMETRIC ? "amd" : "colamd";
}

/// Nonzeros of L + U without L's unit diagonal, from Info's counts (both count the diagonal).
Index entries_of(const std::vector<double>& info, int lnz, int unz, Index n) {
  return static_cast<Index>(info[static_cast<std::size_t>(lnz)] + info[static_cast<std::size_t>(unz)]) - n;
}

}  // namespace

UmfpackSolver::UmfpackSolver(FillOrdering ordering)
    : ordering_(ordering), control_(UMFPACK_CONTROL), info_(UMFPACK_INFO) {
  umfpack_di_defaults(control_.data());
  control_[UMFPACK_IRSTEP] = 0;  // no iterative refinement (umfpack_solver.hpp)
}

UmfpackSolver::UmfpackSolver(UmfpackStrategy strategy) : UmfpackSolver(ordering_of(strategy)) {}

UmfpackSolver::~UmfpackSolver() {
  free_numeric();
  free_symbolic();
}

void UmfpackSolver::free_numeric() {
  if (numeric_) umfpack_di_free_numeric(&numeric_);
  numeric_ = nullptr;
}

void UmfpackSolver::free_symbolic() {
  if (symbolic_) umfpack_di_free_symbolic(&symbolic_);
  symbolic_ = nullptr;
}

double UmfpackSolver::analyze_with(FillOrdering ordering) {
  free_symbolic();
  control_[UMFPACK_STRATEGY] = strategy_control(ordering);
  const CscPattern& p = *pattern_;
  const std::vector<Index> given =
      ordering == FillOrdering::nested_dissection ? nested_dissection_order(p) : std::vector<Index>();
  const int status = umfpack_di_qsymbolic(p.n, p.n, p.column_starts.data(), p.row_indices.data(), nullptr,
                                          given.empty() ? nullptr : given.data(), &symbolic_, control_.data(),
                                          info_.data());
  if (status != UMFPACK_OK) throw LinearSolverError("umfpack: symbolic analysis failed: " + umfpack_status(status));
  profile_.solver = "umfpack";
  profile_.ordering = ordering_used(info_);
  return info_[UMFPACK_FLOPS_ESTIMATE];
}

void UmfpackSolver::analyze_pattern(const CscPattern& pattern) {
  free_numeric();
  free_symbolic();
  pattern_ = &pattern;
  values_.assign(static_cast<std::size_t>(pattern.nnz()), 0.0);
  profile_ = {};
  profiled_ = false;
  const double predicted = analyze_with(ordering_);
  profile_.reason = (ordering_ == FillOrdering::automatic ? std::string("UMFPACK's automatic strategy")
                                                          : "--ordering " + std::string(to_string(ordering_))) +
                    ": " + format_number(predicted) + " flops predicted (an upper bound)";
}

FactorizationStatus UmfpackSolver::factorize(std::span<const double> values) {
  if (!symbolic_) throw LinearSolverError("umfpack: factorize called before analyze_pattern");
  if (values.size() != values_.size())
    throw LinearSolverError("umfpack: expected " + std::to_string(values_.size()) + " values, got " +
                            std::to_string(values.size()));
  free_numeric();
  std::copy(values.begin(), values.end(), values_.begin());
  const int status = umfpack_di_numeric(pattern_->column_starts.data(), pattern_->row_indices.data(), values_.data(),
                                        symbolic_, &numeric_, control_.data(), info_.data());
  if (status == UMFPACK_OK) {
    if (!profiled_) {
      profiled_ = true;
      profile_.factor_entries = entries_of(info_, UMFPACK_LNZ, UMFPACK_UNZ, pattern_->n);
      profile_.flops = info_[UMFPACK_FLOPS];
    }
    return {};
  }
  free_numeric();
  if (status == UMFPACK_ERROR_out_of_memory) throw LinearSolverError("umfpack: out of memory in factorization");
  return {false, "umfpack: " + umfpack_status(status)};
}

void UmfpackSolver::solve(std::span<const double> b, std::span<double> x) { solve_system(UMFPACK_A, b, x); }

void UmfpackSolver::solve_transposed(std::span<const double> b, std::span<double> x) {
  solve_system(UMFPACK_At, b, x);
}

void UmfpackSolver::solve_system(int system, std::span<const double> b, std::span<double> x) {
  if (!numeric_) throw LinearSolverError("umfpack: solve called without a successful factorization");
  check_solve_sizes("umfpack", pattern_->n, b, x);
  const int status = umfpack_di_solve(system, pattern_->column_starts.data(), pattern_->row_indices.data(),
                                      values_.data(), x.data(), b.data(), numeric_, control_.data(), nullptr);
  if (status != UMFPACK_OK) throw LinearSolverError("umfpack: solve failed: " + umfpack_status(status));
}

}  // namespace noether
