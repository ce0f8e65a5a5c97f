#pragma once
/// How Newton factors and solves with the tangent T of its system.
#include <functional>
#include <memory>
#include <span>

#include <noether/engine/sparse_pattern.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// Solves with the tangent T (size() square) of a Newton system whose matrix A = dR/dx is given on
/// a fixed sparse pattern (NewtonSystem::matrix). T is A itself (SparseTangentSolver) or a system
/// built around it (a bordered one: solvers/bordered_solver.hpp); Newton sees only this interface.
class TangentSolver {
 public:
  virtual ~TangentSolver() = default;
  /// The unknowns of T: the pattern's n, plus any a decorator adds.
  virtual Index size() const = 0;
  /// The sparse solver that factors A.
  virtual LinearSolverKind kind() const = 0;
  /// Factors T at A's values `matrix` (pattern order). with_norm: also computes ||T||_1 for
  /// condition_estimate. Fails (a status, as LinearSolver::factorize) where T is singular.
  virtual FactorizationStatus factorize(std::span<const double> matrix, bool with_norm) = 0;
  /// x = T^{-1} rhs (size() each), with the last successful factorization.
  virtual void solve(std::span<const double> rhs, std::span<double> x) = 0;
  /// x = T^{-T} rhs (size() each), with the last successful factorization.
  virtual void solve_transposed(std::span<const double> rhs, std::span<double> x) = 0;
  /// Drops the factorization kept between solves (LinearSolver::forget_factorization); solving
  /// needs a factorize after it.
  virtual void forget_factorization() = 0;

  /// kappa_1(T) = ||T||_1 ||T^{-1}||_1 of the last factorization made with_norm, ||T^{-1}||_1 by
  /// estimate_inverse_norm1 (solvers/condition_estimate.hpp): a lower bound, almost always within a
  /// factor 3; it costs up to 6 solves with T and 4 with T^T.
  double condition_estimate();

 protected:
  /// ||T||_1 of the last factorization made with_norm; throws LinearSolverError without one.
  virtual double factored_norm1() const = 0;
};

/// T = A, factored by a sparse LinearSolver: Newton's tangent for systems without more unknowns
/// than their pattern's.
class SparseTangentSolver final : public TangentSolver {
 public:
  /// Analyzes the pattern (which must outlive this). Throws std::invalid_argument for no solver.
  SparseTangentSolver(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern);

  Index size() const override { return pattern_.n; }
  LinearSolverKind kind() const override { return sparse_->kind(); }
  FactorizationStatus factorize(std::span<const double> matrix, bool with_norm) override;
  void solve(std::span<const double> rhs, std::span<double> x) override;
  void solve_transposed(std::span<const double> rhs, std::span<double> x) override;
  void forget_factorization() override;

 protected:
  double factored_norm1() const override;

 private:
  std::unique_ptr<LinearSolver> sparse_;
  const CscPattern& pattern_;
  double norm_ = 0.0;  ///< ||A||_1 (when factorized with_norm)
  bool factorized_ = false;
};

/// Makes the tangent solver of a system from the sparse solver of its pattern (analyzed by the
/// tangent solver) and the pattern; unset, NewtonSolver makes a SparseTangentSolver.
using TangentSolverFactory =
    std::function<std::unique_ptr<TangentSolver>(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern)>;

}  // namespace noether
