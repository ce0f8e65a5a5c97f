#pragma once
/// KLU (sparse LU for circuit-like matrices), with klu_refactor for repeated factorizations.
#include <string>
#include <vector>

#include <klu.h>

#include <noether/solvers/linear/linear_solver.hpp>
#include <noether/solvers/linear/permuted_csc.hpp>

namespace noether {

/// The first factorization uses klu_factor (pivoting chosen from the values); later ones reuse
/// that pivot sequence with klu_refactor, which is cheaper, and fall back to a fresh klu_factor
/// when the cheap condition estimate (klu_rcond) shows the old pivots have gone bad.
///
/// KLU's analysis of a pattern A yields the row and column orders P, Q (block triangular form and
/// fill-reducing ordering) in which it eliminates. The solver then keeps B = A(P, Q) and has KLU
/// factor B in its given order: each factorization first gathers A's values into B's layout, so
/// that KLU reads its columns one after the other instead of jumping through A. Out of the caches
/// gather plus refactorization of the spherical chain3d is then faster than a refactorization of A
/// (figures: docs/performance.md, 'KLU factors the matrix laid out in its own elimination order').
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
  void solve_transposed(std::span<const double> b, std::span<double> x) override;
  /// The next factorize pivots afresh (klu_factor) instead of reusing the pivot sequence.
  void forget_factorization() override { free_numeric(); }

  /// Numeric factorizations done with klu_refactor (for the benchmarks' phase reports).
  int refactorizations() const { return refactorizations_; }
  /// Nonzeros of L + U of the current factorization, the unit diagonal of L not counted (0 before
  /// the first); KLU stores each with its row index, 12 bytes (the diagonal of U 8).
  Index factor_entries() const;

  /// What the fill-reducing ordering of the last analyze_pattern chose (solvers/linear/lu_column_ordering.hpp).
  struct OrderingRecord {
    std::string method;        ///< of the largest diagonal block KLU ordered ("" when all blocks were tiny)
    Index largest_block = 0;   ///< its size
    std::string failure;       ///< why the ordering failed, if it did
  };
  const OrderingRecord& ordering() const { return ordering_; }

 private:
  /// KLU's analysis of the pattern: row_order_ and column_order_ (P and Q), and ordering_.
  void find_elimination_order(const CscPattern& pattern);
  /// Factors values_ (B's layout) afresh.
  FactorizationStatus factor_fresh();
  void free_numeric();
  /// Unknowns of the analysed pattern (0 before the first analyze_pattern).
  Index size() const { return static_cast<Index>(row_order_.size()); }

  std::vector<Index> row_order_, column_order_;  ///< P, Q: B = A(P, Q)
  PermutedCsc layout_;                           ///< B's pattern (KLU takes it non-const)
  std::vector<double> values_;                   ///< B's values of the last factorize
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
