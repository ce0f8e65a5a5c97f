#pragma once
/// The back-end chosen by the matrix, in one process (`--solver auto`): KLU unless its factors
/// show wide fronts and UMFPACK factors the same matrix in clearly fewer flops.
#include <memory>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// When the first matrix's back-end is chosen again instead of kept (AutoSolver).
struct AutoSolverRule {
  /// KLU's factors have wide fronts above this many flops per factor entry (the grids, 3D
  /// revolute chains); chains and the N-four-bar stay below.
  double wide_front_flops_per_entry = kWideFrontFlopsPerEntry;
  /// ... and are worth a trial at this many flops (about 0.1 s): below, the trial would cost more
  /// than the run could save.
  double trial_flops = 1e8;
  /// UMFPACK is kept when its factorization takes less than 1 / umfpack_margin of KLU's flops:
  /// fewer flops at all, since its dense frontal kernels run each flop faster than KLU's
  /// column-by-column elimination (grid2d k = 100: 0.72 of KLU's flops, half its time).
  double umfpack_margin = 1.0;
};

/// KLU factors the first matrix (with its own choice of ordering, KluSolver). Where those factors
/// have wide fronts and are costly (AutoSolverRule), UMFPACK factors the same matrix too and is
/// kept when it takes fewer flops: its multifrontal elimination runs dense blocks through the
/// BLAS, and the measurements behind the rule (docs/performance.md, "The solver chosen by the
/// mechanism") put its step at about half KLU's time on the largest grids, while on chains and
/// the N-four-bar (narrow fronts) KLU's refactorization is the fastest by far.
/// MUMPS is not a candidate in one process: with the nested dissection it factors grid2d in the
/// fewest flops of the three (a third of UMFPACK's), but its solves through PETSc take about four
/// times UMFPACK's time per factor entry, and over ten steps its step is slower than UMFPACK's
/// (docs/performance.md, "The solver chosen by the mechanism"); a rule by flops would choose it.
///
/// The choice depends on the pattern and that first matrix alone (flops are counts, not clocks),
/// so it is the same in every run of the same input, and a resumed run, whose solver forgot its
/// factorization at the checkpoint as the writing run's did, chooses again as that run did. The
/// first factorize after analyze_pattern or forget_factorization makes the choice; one back-end's
/// factors are kept at a time (the trial's peak memory is the larger one's, not both).
class AutoSolver final : public LinearSolver {
 public:
  /// ordering: given to whichever back-end factors (both take every FillOrdering).
  explicit AutoSolver(FillOrdering ordering = FillOrdering::automatic, AutoSolverRule rule = {})
      : ordering_(ordering), rule_(rule) {}

  LinearSolverKind kind() const override { return LinearSolverKind::automatic; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  void solve_transposed(std::span<const double> b, std::span<double> x) override;
  /// The next factorize chooses again (from KLU's factorization of its matrix).
  void forget_factorization() override;
  /// The chosen back-end's profile, its `solver` named and its `reason` saying why it was chosen.
  FactorizationProfile factorization_profile() const override { return profile_; }

 private:
  /// KLU's factorization of values, then UMFPACK's where KLU's shows wide fronts; keeps the cheaper.
  FactorizationStatus choose(std::span<const double> values);
  LinearSolver& active();

  FillOrdering ordering_;
  AutoSolverRule rule_;
  const CscPattern* pattern_ = nullptr;
  std::unique_ptr<LinearSolver> active_;  ///< the back-end chosen (KLU before the first choice)
  bool chosen_ = false;
  FactorizationProfile profile_;
};

}  // namespace noether
