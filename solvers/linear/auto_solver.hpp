#pragma once
/// The back-end chosen by the matrix, in one process (`--solver auto`): KLU unless its factors
/// show wide fronts and a multifrontal back-end (UMFPACK, MUMPS) factors the same matrix in fewer flops.
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
  /// A trial back-end replaces the one of fewest flops so far when its factorization takes less
  /// than 1 / margin of those: fewer flops at all, since the multifrontal back-ends' dense
  /// kernels run each flop faster than KLU's column-by-column elimination.
  double margin = 1.0;
  /// MUMPS is a trial back-end too, in a build with it (linear_solver_built).
  bool try_mumps = true;
};

/// KLU factors the first matrix (with its own choice of ordering, KluSolver). Where those factors
/// have wide fronts and are costly (AutoSolverRule), UMFPACK factors the same matrix too, then
/// MUMPS (in a build with PETSc; with METIS's nested dissection where its analysis predicts wide
/// fronts, petsc_lu_solver.hpp), and the one of fewest flops is kept: the multifrontal back-ends
/// run dense blocks through the BLAS, and on the largest grids MUMPS with the nested dissection
/// factors in a quarter of KLU's flops and UMFPACK in about 0.7 (docs/performance.md, "The solver
/// chosen by the mechanism"), while on chains and the N-four-bar (narrow fronts) KLU's
/// refactorization is the fastest by far and no trial runs.
///
/// The choice depends on the pattern and that first matrix alone (flops are counts, not clocks),
/// so it is the same in every run of the same input, and a resumed run, whose solver forgot its
/// factorization at the checkpoint as the writing run's did, chooses again as that run did. The
/// first factorize after analyze_pattern or forget_factorization makes the choice; the trial holds
/// two back-ends' factors at a time (the fewest flops so far and the candidate), the run one.
class AutoSolver final : public LinearSolver {
 public:
  /// ordering: given to KLU and UMFPACK (both take every FillOrdering), and to MUMPS when it is nd
  /// (MUMPS takes no other: with amd or colamd it orders by its own rule).
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
  /// KLU's factorization of values, then UMFPACK's and MUMPS's where KLU's shows wide fronts;
  /// keeps the one of fewest flops.
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
