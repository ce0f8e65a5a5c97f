#pragma once
/// UMFPACK (unsymmetric multifrontal LU).
#include <vector>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// UMFPACK's ordering strategy (Control[UMFPACK_STRATEGY]): automatic chooses from the pattern;
/// symmetric orders A + A^T with AMD and prefers diagonal pivots; unsymmetric orders A^T A with COLAMD.
enum class UmfpackStrategy { automatic, symmetric, unsymmetric };

/// The fill-reducing ordering by FillOrdering: amd and colamd are UMFPACK's symmetric and
/// unsymmetric strategies; nd is the symmetric strategy with nested_dissection_order's order as
/// UMFPACK's given column pre-ordering (umfpack_di_qsymbolic; the symmetric strategy orders the rows
/// alike and prefers diagonal pivots); automatic is UMFPACK's automatic strategy, which never takes
/// nd by itself. UMFPACK factors each matrix afresh, so a trial factorization as KluSolver's would
/// cost one more factorization at every Newton matrix's first, and its analysis's predictions,
/// bounds for any row pivoting, cannot judge nd: they rate it 13 times worse than its own order on
/// a plain 120 x 120 grid (2.0e9 flops against 1.5e8), where nested dissection is at its best.
///
/// A solve is one forward and one backward substitution, without UMFPACK's iterative refinement
/// (Control[UMFPACK_IRSTEP] = 0; its default 2 would add up to two residuals and solves to each):
/// the Newton iteration around every solve refines its own result, and on grid2d k = 100 the
/// refinement made the solve phase 4.5 times longer (docs/performance.md, "The solver chosen by
/// the mechanism").
class UmfpackSolver final : public LinearSolver {
 public:
  explicit UmfpackSolver(FillOrdering ordering = FillOrdering::automatic);
  /// automatic, symmetric, unsymmetric: the orderings automatic, amd, colamd.
  explicit UmfpackSolver(UmfpackStrategy strategy);
  ~UmfpackSolver() override;
  UmfpackSolver(const UmfpackSolver&) = delete;
  UmfpackSolver& operator=(const UmfpackSolver&) = delete;

  LinearSolverKind kind() const override { return LinearSolverKind::umfpack; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  void solve_transposed(std::span<const double> b, std::span<double> x) override;
  /// UMFPACK keeps nothing between factorizations; the next one's fill and flops are profiled
  /// again, as a new solver's first would be (a resumed run reports what the run it continues does).
  void forget_factorization() override { profiled_ = false; }
  /// The ordering of analyze_pattern, and the fill and flops of the first factorization after it or
  /// after forget_factorization.
  FactorizationProfile factorization_profile() const override { return profile_; }

 private:
  void free_numeric();
  void free_symbolic();
  /// UMFPACK's symbolic analysis of the pattern with `ordering` into symbolic_; returns its predicted flops (Info[UMFPACK_FLOPS_ESTIMATE]) and sets
  /// profile_.ordering.
  double analyze_with(FillOrdering ordering);
  /// x = A^{-1} b (system UMFPACK_A) or A^{-T} b (UMFPACK_At) with the last factorization.
  void solve_system(int system, std::span<const double> b, std::span<double> x);

  FillOrdering ordering_;
  const CscPattern* pattern_ = nullptr;
  std::vector<double> values_;  ///< the factorized values (UMFPACK's solve reads the matrix again)
  std::vector<double> control_;
  std::vector<double> info_;
  void* symbolic_ = nullptr;
  void* numeric_ = nullptr;
  FactorizationProfile profile_;
  bool profiled_ = false;  ///< profile_ holds the figures of the first factorization since
                           ///< analyze_pattern or forget_factorization
};

}  // namespace noether
