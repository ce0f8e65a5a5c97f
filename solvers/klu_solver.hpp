#pragma once
/// KLU (sparse LU for circuit-like matrices), with klu_refactor for repeated factorizations.
#include <string>
#include <vector>

#include <klu.h>

#include "solvers/linear_solver.hpp"

namespace noether {

/// The first factorization uses klu_factor (pivoting chosen from the values); later ones reuse
/// that pivot sequence with klu_refactor, which is cheaper, and fall back to a fresh klu_factor
/// when the cheap condition estimate (klu_rcond) shows the old pivots have gone bad.
class KluSolver final : public LinearSolver {
 public:
  KluSolver();
  ~KluSolver() override;
  KluSolver(const KluSolver&) = delete;
  KluSolver& operator=(const KluSolver&) = delete;

  LinearSolverKind kind() const override { return LinearSolverKind::klu; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;

  /// Numeric factorizations done with klu_refactor (for the benchmarks' phase reports).
  int refactorizations() const { return refactorizations_; }
  /// Nonzeros of L + U of the current factorization, the unit diagonal of L not counted (0 before
  /// the first); KLU stores each with its row index, 12 bytes (the diagonal of U 8).
  Index factor_entries() const;

  /// What the fill-reducing ordering of the last analyze_pattern chose (solvers/lu_column_ordering.hpp).
  struct OrderingRecord {
    std::string method;        ///< of the largest diagonal block KLU ordered ("" when all blocks were tiny)
    Index largest_block = 0;   ///< its size
    std::string failure;       ///< why the ordering failed, if it did
  };
  const OrderingRecord& ordering() const { return ordering_; }

 private:
  FactorizationStatus factor_fresh(std::span<const double> values);
  void free_numeric();

  const CscPattern* pattern_ = nullptr;
  std::vector<Index> column_starts_, row_indices_;  ///< KLU takes non-const pointers
  OrderingRecord ordering_;
  double fresh_rcond_ = 0.0;  ///< klu_rcond of the last fresh factorization
  klu_common common_{};
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* numeric_ = nullptr;
  bool factorized_ = false;
  int refactorizations_ = 0;
};

}  // namespace noether
