#include <noether/solvers/linear/umfpack_solver.hpp>

#include <umfpack.h>

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

double strategy_control(UmfpackStrategy strategy) {
  switch (strategy) {
    case UmfpackStrategy::automatic: return UMFPACK_STRATEGY_AUTO;
    case UmfpackStrategy::symmetric: return UMFPACK_STRATEGY_SYMMETRIC;
    case UmfpackStrategy::unsymmetric: return UMFPACK_STRATEGY_UNSYMMETRIC;
  }
  return UMFPACK_STRATEGY_AUTO;
}

}  // namespace

UmfpackSolver::UmfpackSolver(UmfpackStrategy strategy) : control_(UMFPACK_CONTROL) {
  umfpack_di_defaults(control_.data());
  control_[UMFPACK_STRATEGY] = strategy_control(strategy);
}

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

void UmfpackSolver::analyze_pattern(const CscPattern& pattern) {
  free_numeric();
  free_symbolic();
  pattern_ = &pattern;
  values_.assign(static_cast<std::size_t>(pattern.nnz()), 0.0);
  const int status = umfpack_di_symbolic(pattern.n, pattern.n, pattern.column_starts.data(), pattern.row_indices.data(),
                                         nullptr, &symbolic_, control_.data(), nullptr);
  if (status != UMFPACK_OK) throw LinearSolverError("umfpack: symbolic analysis failed: " + umfpack_status(status));
}

FactorizationStatus UmfpackSolver::factorize(std::span<const double> values) {
  if (!symbolic_) throw LinearSolverError("umfpack: factorize called before analyze_pattern");
  if (values.size() != values_.size())
    throw LinearSolverError("umfpack: expected " + std::to_string(values_.size()) + " values, got " +
                            std::to_string(values.size()));
  free_numeric();
  std::copy(values.begin(), values.end(), values_.begin());
  const int status = umfpack_di_numeric(pattern_->column_starts.data(), pattern_->row_indices.data(), values_.data(),
                                        symbolic_, &numeric_, control_.data(), nullptr);
  if (status == UMFPACK_OK) return {};
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
