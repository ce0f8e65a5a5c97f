#pragma once
/// Sparse direct linear solvers behind one interface with explicit phases.
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
/// it can say how to get it.
enum class LinearSolverKind { umfpack, klu, cholmod, eigen, mumps };

/// "umfpack", "klu", "cholmod", "eigen", "mumps".
std::string_view to_string(LinearSolverKind kind);
/// Inverse of to_string; std::nullopt for an unknown name.
std::optional<LinearSolverKind> parse_linear_solver_kind(std::string_view name);

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
};

/// For backends' solve: throws LinearSolverError naming the backend unless b and x both hold n entries.
void check_solve_sizes(std::string_view backend, Index n, std::span<const double> b, std::span<double> x);

}  // namespace noether
