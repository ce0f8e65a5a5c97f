#pragma once
/// CHOLMOD (supernodal sparse Cholesky) for symmetric positive definite matrices.
#include <vector>

#include <cholmod.h>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// Reads only the upper triangle of the pattern (stype = 1). A matrix that is not positive
/// definite gives a failed FactorizationStatus naming the column where the factorization stopped.
class CholmodSolver final : public LinearSolver {
 public:
  CholmodSolver();
  ~CholmodSolver() override;
  CholmodSolver(const CholmodSolver&) = delete;
  CholmodSolver& operator=(const CholmodSolver&) = delete;

  LinearSolverKind kind() const override { return LinearSolverKind::cholmod; }
  bool needs_symmetric_positive_definite() const override { return true; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  void solve_transposed(std::span<const double> b, std::span<double> x) override;

 private:
  cholmod_sparse view(double* values);

  const CscPattern* pattern_ = nullptr;
  std::vector<Index> column_starts_, row_indices_;
  std::vector<double> values_;
  cholmod_common common_{};
  cholmod_factor* factor_ = nullptr;
  bool factorized_ = false;
};

}  // namespace noether
