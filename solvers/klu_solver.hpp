#pragma once
/// KLU (sparse LU for circuit-like matrices), with klu_refactor for repeated factorizations.
#include <string>
#include <vector>

#include <klu.h>

#include "solvers/linear_solver.hpp"
#include "solvers/permuted_csc.hpp"

namespace noether {

/// The first factorization uses klu_factor (pivoting chosen from the values); later ones reuse
/// that pivot sequence with klu_refactor, which is cheaper, and fall back to a fresh klu_factor
/// when the cheap condition estimate (klu_rcond) shows the old pivots have gone bad.
///
/// KLU's analysis of a pattern A yields the row and column orders P, Q (block triangular form and
/// fill-reducing ordering) in which it eliminates. The solver then keeps B = A(P, Q) and has KLU
/// factor B in its given order, so that KLU reads its columns one after the other instead of
/// jumping through A. Out of the caches this makes the refactorization of the spherical chain3d
/// 1.35 to 1.5 times faster than one of A (docs/performance.md). B's layout is the solver's
/// value_layout(): a caller that assembles straight into it hands the values to
/// factorize_laid_out; factorize copies values given in A's order into B's layout first.
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
  ValueLayout value_layout() const override { return {layout_.position, layout_id_}; }
  FactorizationStatus factorize_laid_out(std::span<const double> values) override;
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
  /// KLU's analysis of the pattern: row_order_ and column_order_ (P and Q), and ordering_.
  void find_elimination_order(const CscPattern& pattern);
  /// Throws LinearSolverError unless analysed and values holds one entry per nonzero.
  void check_value_count(std::span<const double> values, const char* caller) const;
  /// Refactors values (B's layout, nnz) on the last pivot sequence, or factors them afresh when
  /// there is none or it went bad.
  FactorizationStatus factor_laid_out_values(double* values);
  /// Factors values (B's layout) afresh.
  FactorizationStatus factor_fresh(double* values);
  void free_numeric();
  /// Unknowns of the analysed pattern (0 before the first analyze_pattern).
  Index size() const { return static_cast<Index>(row_order_.size()); }

  std::vector<Index> row_order_, column_order_;  ///< P, Q: B = A(P, Q)
  PermutedCsc layout_;                           ///< B's pattern (KLU takes it non-const)
  std::uint64_t layout_id_ = 0;                  ///< value_layout().id
  std::vector<double> values_;                   ///< B's values of the last factorize (in pattern order)
  std::vector<double> work_;                     ///< right-hand side and solution in B's order
  OrderingRecord ordering_;
  double fresh_rcond_ = 0.0;  ///< klu_rcond of the last fresh factorization
  klu_common common_{};
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* numeric_ = nullptr;
  bool factorized_ = false;
  int refactorizations_ = 0;
};

}  // namespace noether
