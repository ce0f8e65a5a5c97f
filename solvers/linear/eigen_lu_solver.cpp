#include <noether/solvers/linear/eigen_lu_solver.hpp>

namespace noether {
namespace {

Eigen::Map<const Eigen::SparseMatrix<double, Eigen::ColMajor, Index>> view(const CscPattern& p, const double* values) {
  return {p.n, p.n, p.nnz(), p.column_starts.data(), p.row_indices.data(), values};
}

}  // namespace

void EigenLuSolver::analyze_pattern(const CscPattern& pattern) {
  pattern_ = &pattern;
  factorized_ = false;
  const std::vector<double> ones(static_cast<std::size_t>(pattern.nnz()), 1.0);
  lu_.analyzePattern(view(pattern, ones.data()));
}

FactorizationStatus EigenLuSolver::factorize(std::span<const double> values) {
  if (!pattern_) throw LinearSolverError("eigen: factorize called before analyze_pattern");
  if (values.size() != static_cast<std::size_t>(pattern_->nnz()))
    throw LinearSolverError("eigen: expected " + std::to_string(pattern_->nnz()) + " values, got " +
                            std::to_string(values.size()));
  lu_.factorize(view(*pattern_, values.data()));
  factorized_ = lu_.info() == Eigen::Success;
  if (!factorized_) return {false, "eigen SparseLU: " + lu_.lastErrorMessage()};
  return {};
}

void EigenLuSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("eigen: solve called without a successful factorization");
  const Index n = pattern_->n;
  check_solve_sizes("eigen", n, b, x);
  Eigen::Map<Vector>(x.data(), n) = lu_.solve(Eigen::Map<const Vector>(b.data(), n));
}

void EigenLuSolver::solve_transposed(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("eigen: solve_transposed called without a successful factorization");
  const Index n = pattern_->n;
  check_solve_sizes("eigen", n, b, x);
  Eigen::Map<Vector>(x.data(), n) = lu_.transpose().solve(Eigen::Map<const Vector>(b.data(), n));
}

}  // namespace noether
