#include <noether/solvers/tangent_solver.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <noether/solvers/condition_estimate.hpp>

namespace noether {

double TangentSolver::condition_estimate() {
  const double norm = factored_norm1();
  Vector out(size());
  const auto span = [](auto& v) { return std::span<double>(v.data(), static_cast<std::size_t>(v.size())); };
  const double inverse = estimate_inverse_norm1(
      size(),
      [&](VectorRef x) {
        solve(span(x), span(out));
        x = out;
      },
      [&](VectorRef x) {
        solve_transposed(span(x), span(out));
        x = out;
      });
  return norm * inverse;
}

SparseTangentSolver::SparseTangentSolver(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern)
    : sparse_(std::move(sparse)), pattern_(pattern) {
  if (!sparse_) throw std::invalid_argument("SparseTangentSolver: no sparse solver");
  sparse_->analyze_pattern(pattern_);
}

FactorizationStatus SparseTangentSolver::factorize(std::span<const double> matrix, bool with_norm) {
  factorized_ = false;
  norm_ = std::numeric_limits<double>::quiet_NaN();
  if (with_norm) {
    norm_ = 0.0;
    for (Index j = 0; j < pattern_.n; ++j) {
      double column = 0.0;
      for (Index k = pattern_.column_starts[static_cast<std::size_t>(j)];
           k < pattern_.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
        column += std::abs(matrix[static_cast<std::size_t>(k)]);
      norm_ = std::max(norm_, column);
    }
  }
  const FactorizationStatus status = sparse_->factorize(matrix);
  factorized_ = status.ok;
  return status;
}

void SparseTangentSolver::solve(std::span<const double> rhs, std::span<double> x) {
  check_solve_sizes("Newton tangent", size(), rhs, x);
  if (!factorized_) throw LinearSolverError("Newton tangent: solve called without a successful factorization");
  sparse_->solve(rhs, x);
}

void SparseTangentSolver::solve_transposed(std::span<const double> rhs, std::span<double> x) {
  check_solve_sizes("Newton tangent", size(), rhs, x);
  if (!factorized_) throw LinearSolverError("Newton tangent: solve called without a successful factorization");
  sparse_->solve_transposed(rhs, x);
}

void SparseTangentSolver::forget_factorization() {
  sparse_->forget_factorization();
  factorized_ = false;
}

double SparseTangentSolver::factored_norm1() const {
  if (!factorized_) throw LinearSolverError("Newton tangent: condition_estimate called without a factorization");
  return norm_;
}

}  // namespace noether
