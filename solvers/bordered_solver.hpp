#pragma once
/// The Newton tangent of a sparse system, possibly bordered by one global unknown.
#include <memory>
#include <span>
#include <vector>

#include <noether/engine/sparse_pattern.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// The border of a tangent [A b; c^T d]: b (column, n), c (row, n) and the corner d. For a system
/// with one unknown s beyond the sparse ones and one equation phi beyond their rows:
/// b = dR/ds, c = dphi/dx, d = dphi/ds.
struct BorderView {
  std::span<const double> column, row;
  double corner = 0.0;
};

/// Solves with the tangent T of a Newton system of n sparse unknowns and `border` (0 or 1) more:
///
///   border 0:  T = A,                 border 1:  T = [A   b]   (n + 1 square),
///                                                    [c^T d]
///
/// A given by its pattern and values, factored by a sparse LinearSolver. The bordered matrix is
/// never formed: block elimination with A's factorization,
///
///   factorize:  z = A^{-1} b,   sigma = d - c.z                (one solve with A)
///   solve:      y = A^{-1} r,   s = (t - c.y) / sigma,   x = y - z s     for T (x, s) = (r, t),
///
/// so a bordered system costs one sparse factorization and one more solve per factorization than
/// A alone, and its dense row and column never enter the sparse factors. (Block elimination
/// needs A itself to be well conditioned; a nearly singular A with a well-conditioned T loses
/// digits [Govaerts1991]. The steppers' A is a fixed-step Newton matrix, nonsingular wherever
/// that step is.) The transposed system uses A's transposed solve the same way.
class BorderedLinearSolver {
 public:
  /// Analyzes A's pattern (which must outlive this). Throws std::invalid_argument for a border
  /// other than 0 or 1.
  BorderedLinearSolver(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern, Index border);

  /// n + border.
  Index size() const { return pattern_.n + border_; }
  Index border() const { return border_; }
  LinearSolverKind kind() const { return sparse_->kind(); }

  /// Factors T with A's values (pattern order) and, when bordered, border (n each, and d).
  /// with_norm: also computes ||T||_1 for condition_estimate. Fails (a status, as
  /// LinearSolver::factorize) when A is singular, or the Schur complement sigma is not finite or
  /// within 64 ulps of the magnitude of its terms (|d| + sum_i |c_i z_i|).
  FactorizationStatus factorize(std::span<const double> values, const BorderView& border, bool with_norm);
  /// x = T^{-1} rhs (size() each), with the last successful factorization.
  void solve(std::span<const double> rhs, std::span<double> x);
  /// x = T^{-T} rhs (size() each).
  void solve_transposed(std::span<const double> rhs, std::span<double> x);
  /// kappa_1(T) = ||T||_1 ||T^{-1}||_1 of the last factorization made with_norm, ||T^{-1}||_1 by
  /// estimate_inverse_norm1 (solvers/condition_estimate.hpp): a lower bound, almost always within a
  /// factor 3; it costs up to 6 solves with T and 4 with T^T.
  double condition_estimate();
  /// LinearSolver::forget_factorization of A; solving needs a factorize after it.
  void forget_factorization();

 private:
  /// ||T||_1: the largest column sum of |T|.
  double norm1(std::span<const double> values, const BorderView& border) const;

  std::unique_ptr<LinearSolver> sparse_;
  const CscPattern& pattern_;
  Index border_;
  std::vector<double> column_, row_, z_;  ///< b, c and A^{-1} b of the factorization (bordered)
  double sigma_ = 1.0;                     ///< d - c.z
  double norm_ = 0.0;                      ///< ||T||_1 (when factorized with_norm)
  std::vector<double> work_;               ///< n
  bool factorized_ = false;
};

}  // namespace noether
