#pragma once
/// Sparse direct linear solvers behind one interface with explicit phases.
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <noether/engine/sparse_pattern.hpp>

namespace noether {

/// mumps is the PETSc back-end (petsc_lu_solver.hpp), in a build with PETSc only
/// (linear_solver_built); the name exists in every build, so that asking for it in a build without
/// it can say how to get it. schur factors each process's interior by KLU and the interface
/// between them by its Schur complement (schur_solver.hpp). automatic is a choice, not a back-end:
/// make_linear_solver picks one by the mechanism (auto_solver.hpp in one process).
enum class LinearSolverKind { umfpack, klu, cholmod, eigen, mumps, schur, automatic };

/// "umfpack", "klu", "cholmod", "eigen", "mumps", "schur", "auto".
std::string_view to_string(LinearSolverKind kind);
/// Inverse of to_string; std::nullopt for an unknown name.
std::optional<LinearSolverKind> parse_linear_solver_kind(std::string_view name);

/// The fill-reducing ordering of a sparse LU back-end (KLU, UMFPACK), `--ordering`:
///  - automatic: the back-end's own choice, with nested dissection where it predicts or measures
///    clearly fewer flops (KluSolver, UmfpackSolver say how each judges);
///  - nested_dissection: METIS's nested dissection of A + A^T (solvers/linear/nested_dissection.hpp);
///  - amd: approximate minimum degree of A + A^T;
///  - colamd: a column ordering for A^T A (COLAMD; KLU's may be the given order or CHOLMOD's nested
///    dissection of A^T A where those predict fewer flops: solvers/linear/lu_column_ordering.hpp).
/// CHOLMOD and Eigen take automatic only (make_linear_solver).
enum class FillOrdering { automatic, nested_dissection, amd, colamd };

/// "auto", "nd", "amd", "colamd".
std::string_view to_string(FillOrdering ordering);
/// Inverse of to_string; std::nullopt for an unknown name.
std::optional<FillOrdering> parse_fill_ordering(std::string_view name);

/// A back-end and the ordering it factors in. A kind alone converts (implicitly) to a choice of it
/// with the automatic ordering: callers that name only the back-end need not spell the ordering.
struct LinearSolverChoice {
  LinearSolverChoice(LinearSolverKind backend, FillOrdering fill_ordering = FillOrdering::automatic)
      : kind(backend), ordering(fill_ordering) {}
  LinearSolverKind kind;
  FillOrdering ordering;
};

/// A sparse LU's factors have wide fronts above this many flops per factor entry: the grids and
/// the 3D revolute chains, where the pivoting's fill makes nested dissection and the multifrontal
/// back-ends (UMFPACK, MUMPS) worth a trial; the chains, the N-four-bar, the four-bars and the top
/// stay below it, where KLU with a minimum-degree ordering is the fastest by far (the cases:
/// docs/notebook.md, 'Figures moved from code comments'). KluSolver, AutoSolver and the MUMPS
/// back-end judge by it.
inline constexpr double kWideFrontFlopsPerEntry = 15.0;

/// How a back-end factors the analysed pattern: the ordering it chose, why, and what its first
/// factorization under that ordering cost. Empty (ordering "", counts 0 or NaN) where the back-end
/// does not say, or before its first successful factorization.
struct FactorizationProfile {
  std::string solver;        ///< the back-end that factors (auto: the one it chose), e.g. "klu"
  std::string ordering;      ///< the fill-reducing ordering in use, e.g. "nd", "amd", "colamd", "given"
  std::string reason;        ///< why that one (the trial's or the analysis's figures)
  Index factor_entries = 0;  ///< nonzeros of L + U, L's unit diagonal not counted
  double flops = std::numeric_limits<double>::quiet_NaN();  ///< of that first factorization
};

/// Outcome of a numeric factorization. A failed one (numerically singular matrix, or not
/// positive definite for CHOLMOD) is a status, not an exception: Newton reports it with context.
struct FactorizationStatus {
  bool ok = true;
  std::string message;  ///< what went wrong, from the backend, when !ok
};

/// Thrown for misuse (solve before factorize, wrong sizes) and backend failures other than a
/// singular matrix (out of memory).
class LinearSolverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Phases: analyze_pattern once per sparsity pattern (ordering, symbolic factorization);
/// factorize for each new set of values (same pattern, values in pattern order); solve as often
/// as wanted with the last successful factorization. Threads: one thread's at a time (it keeps
/// the factors and the backend's workspace).
class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  virtual LinearSolverKind kind() const = 0;
  /// CHOLMOD: the matrix must be symmetric positive definite (only its upper triangle is read).
  virtual bool needs_symmetric_positive_definite() const = 0;

  /// The pattern must stay alive and unchanged until the next analyze_pattern.
  virtual void analyze_pattern(const CscPattern& pattern) = 0;
  /// values: pattern.nnz() entries in pattern order.
  virtual FactorizationStatus factorize(std::span<const double> values) = 0;
  /// x = A^{-1} b  (n each). Throws LinearSolverError without a successful factorization.
  virtual void solve(std::span<const double> b, std::span<double> x) = 0;
  /// x = A^{-T} b  (n each), with the same factorization (condition estimates need both; CHOLMOD's
  /// A is symmetric). Throws LinearSolverError without a successful factorization.
  virtual void solve_transposed(std::span<const double> b, std::span<double> x) = 0;
  /// Drops what the last factorizations leave for the next ones (KLU's pivot sequence), so that
  /// the next factorize depends on its values alone, as a new solver's first one does (a
  /// checkpoint, Stepper::checkpoint). Solving needs a factorize after it. Nothing for backends
  /// that factor each matrix afresh.
  virtual void forget_factorization() {}
  /// The ordering and fill of the factorizations since the last choice of ordering (none by default).
  virtual FactorizationProfile factorization_profile() const { return {}; }
};

/// For backends' solve: throws LinearSolverError naming the backend unless b and x both hold n entries.
void check_solve_sizes(std::string_view backend, Index n, std::span<const double> b, std::span<double> x);

}  // namespace noether
