#include <noether/solvers/bordered_solver.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <noether/engine/format.hpp>

namespace noether {
namespace {

/// A Schur complement d - c.A^{-1} b at most this fraction of the magnitude of its terms
/// (|d| + sum_i |c_i z_i|) is rounding noise: 64 ulps of cancellation.
constexpr double kSingularSchurComplement = 64 * std::numeric_limits<double>::epsilon();

double dot(std::span<const double> a, std::span<const double> b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace

BorderedTangentSolver::BorderedTangentSolver(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern,
                                             std::function<BorderView()> border)
    : sparse_(std::move(sparse)), pattern_(pattern), border_(std::move(border)) {
  if (!sparse_) throw std::invalid_argument("BorderedTangentSolver: no sparse solver");
  if (!border_) throw std::invalid_argument("BorderedTangentSolver: no border");
  sparse_->analyze_pattern(pattern_);
  const auto n = static_cast<std::size_t>(pattern_.n);
  work_.resize(n);
  column_.resize(n);
  row_.resize(n);
  z_.resize(n);
}

FactorizationStatus BorderedTangentSolver::factorize(std::span<const double> matrix, bool with_norm) {
  factorized_ = false;
  const BorderView border = border_();
  if (border.column.size() != column_.size() || border.row.size() != row_.size())
    throw std::invalid_argument("BorderedTangentSolver: the border holds " + std::to_string(border.column.size()) +
                                " and " + std::to_string(border.row.size()) + " entries, the tangent " +
                                std::to_string(pattern_.n) + " rows");
  norm_ = with_norm ? norm1(matrix, border) : std::numeric_limits<double>::quiet_NaN();
  FactorizationStatus status = sparse_->factorize(matrix);
  if (!status.ok) return status;
  std::copy(border.column.begin(), border.column.end(), column_.begin());
  std::copy(border.row.begin(), border.row.end(), row_.begin());
  sparse_->solve(column_, z_);
  const double cz = dot(row_, z_);
  sigma_ = border.corner - cz;
  // sigma within rounding of its two terms is 0: [c^T d] depends on [A b].
  double terms = std::abs(border.corner);
  for (std::size_t i = 0; i < z_.size(); ++i) terms += std::abs(row_[i] * z_[i]);
  if (!(std::isfinite(sigma_) && std::abs(sigma_) > kSingularSchurComplement * terms))
    return {false, "the bordered tangent is singular: its Schur complement d - c.A^{-1} b is " + format_number(sigma_) +
                       " of terms " + format_number(terms) + ", so the row of the global unknown does not determine it"};
  factorized_ = true;
  return {};
}

void BorderedTangentSolver::solve(std::span<const double> rhs, std::span<double> x) {
  check_solve_sizes("bordered tangent", size(), rhs, x);
  if (!factorized_) throw LinearSolverError("bordered tangent: solve called without a successful factorization");
  const auto n = static_cast<std::size_t>(pattern_.n);
  sparse_->solve(rhs.first(n), x.first(n));  // y
  const double s = (rhs[n] - dot(row_, x.first(n))) / sigma_;
  for (std::size_t i = 0; i < n; ++i) x[i] -= z_[i] * s;
  x[n] = s;
}

void BorderedTangentSolver::solve_transposed(std::span<const double> rhs, std::span<double> x) {
  check_solve_sizes("bordered tangent", size(), rhs, x);
  if (!factorized_) throw LinearSolverError("bordered tangent: solve called without a successful factorization");
  const auto n = static_cast<std::size_t>(pattern_.n);
  // T^T = [A^T c; b^T d]: w = (t - z.f) / sigma (b^T A^{-T} = z^T), u = A^{-T} (f - c w).
  const double w = (rhs[n] - dot(z_, rhs.first(n))) / sigma_;
  for (std::size_t i = 0; i < n; ++i) work_[i] = rhs[i] - row_[i] * w;
  sparse_->solve_transposed(work_, x.first(n));
  x[n] = w;
}

void BorderedTangentSolver::forget_factorization() {
  sparse_->forget_factorization();
  factorized_ = false;
}

double BorderedTangentSolver::norm1(std::span<const double> values, const BorderView& border) const {
  double largest = 0.0;
  for (Index j = 0; j < pattern_.n; ++j) {
    double column = std::abs(border.row[static_cast<std::size_t>(j)]);
    for (Index k = pattern_.column_starts[static_cast<std::size_t>(j)];
         k < pattern_.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
      column += std::abs(values[static_cast<std::size_t>(k)]);
    largest = std::max(largest, column);
  }
  double column = std::abs(border.corner);
  for (double b : border.column) column += std::abs(b);
  return std::max(largest, column);
}

double BorderedTangentSolver::factored_norm1() const {
  if (!factorized_) throw LinearSolverError("bordered tangent: condition_estimate called without a factorization");
  return norm_;
}

TangentSolverFactory bordered_tangent(std::function<BorderView()> border) {
  return [border = std::move(border)](std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern) {
    return std::make_unique<BorderedTangentSolver>(std::move(sparse), pattern, border);
  };
}

}  // namespace noether
