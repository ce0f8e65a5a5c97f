#pragma once
/// Eigen's SparseLU: the reference backend (no external library).
#include <memory>

#include <Eigen/SparseLU>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

class EigenLuSolver final : public LinearSolver {
 public:
  LinearSolverKind kind() const override { return LinearSolverKind::eigen; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  void solve_transposed(std::span<const double> b, std::span<double> x) override;

 private:
  using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;
  const CscPattern* pattern_ = nullptr;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<Index>> lu_;
  bool factorized_ = false;
};

}  // namespace noether
