#include <noether/solvers/linear/cholmod_solver.hpp>

#include <algorithm>

#include <noether/solvers/linear/cholmod_view.hpp>

namespace noether {

CholmodSolver::CholmodSolver() {
  cholmod_start(&common_);
  // Simplicial factorizations are LDL' by default, and LDL' accepts an indefinite matrix (it
  // stops only at an exactly zero pivot). LL' stops at the first non-positive pivot, which is
  // the positive-definiteness test this class promises.
  common_.final_ll = 1;
}

CholmodSolver::~CholmodSolver() {
  if (factor_) cholmod_free_factor(&factor_, &common_);
  cholmod_finish(&common_);
}

cholmod_sparse CholmodSolver::view(double* values) {
  // Symmetric with the upper triangle stored; CscPattern's rows are sorted.
  return cholmod_view(pattern_->n, column_starts_, row_indices_, values, {.stype = 1, .sorted = true});
}

void CholmodSolver::analyze_pattern(const CscPattern& pattern) {
  if (factor_) cholmod_free_factor(&factor_, &common_);
  factorized_ = false;
  pattern_ = &pattern;
  column_starts_ = pattern.column_starts;
  row_indices_ = pattern.row_indices;
  values_.assign(static_cast<std::size_t>(pattern.nnz()), 0.0);
  cholmod_sparse A = view(values_.data());
  factor_ = cholmod_analyze(&A, &common_);
  if (!factor_) throw LinearSolverError("cholmod: symbolic analysis failed (status " + std::to_string(common_.status) + ")");
}

FactorizationStatus CholmodSolver::factorize(std::span<const double> values) {
  if (!factor_) throw LinearSolverError("cholmod: factorize called before analyze_pattern");
  if (values.size() != values_.size())
    throw LinearSolverError("cholmod: expected " + std::to_string(values_.size()) + " values, got " +
                            std::to_string(values.size()));
  std::copy(values.begin(), values.end(), values_.begin());
  cholmod_sparse A = view(values_.data());
  const int saved_print = common_.print;
  common_.print = 0;  // a non-positive-definite matrix is a status for the caller, not console noise
  cholmod_factorize(&A, factor_, &common_);
  common_.print = saved_print;
  if (common_.status == CHOLMOD_OUT_OF_MEMORY) throw LinearSolverError("cholmod: out of memory in factorization");
  factorized_ = common_.status == CHOLMOD_OK;
  if (common_.status == CHOLMOD_NOT_POSDEF)
    return {false, "cholmod: the matrix is not positive definite (factorization stopped at column " +
                       std::to_string(factor_->minor) + ")"};
  if (!factorized_) return {false, "cholmod: factorization failed (status " + std::to_string(common_.status) + ")"};
  return {};
}

void CholmodSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("cholmod: solve called without a successful factorization");
  check_solve_sizes("cholmod", pattern_->n, b, x);
  cholmod_dense B{};
  B.nrow = static_cast<std::size_t>(pattern_->n);
  B.ncol = 1;
  B.nzmax = B.nrow;
  B.d = B.nrow;
  B.x = const_cast<double*>(b.data());  // cholmod_solve only reads B
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* X = cholmod_solve(CHOLMOD_A, factor_, &B, &common_);
  if (!X) throw LinearSolverError("cholmod: solve failed (status " + std::to_string(common_.status) + ")");
  const double* solution = static_cast<const double*>(X->x);
  std::copy(solution, solution + pattern_->n, x.begin());
  cholmod_free_dense(&X, &common_);
}

void CholmodSolver::solve_transposed(std::span<const double> b, std::span<double> x) { solve(b, x); }  // A = A^T

}  // namespace noether
