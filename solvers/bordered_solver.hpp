#pragma once
/// The Newton tangent of a sparse system bordered by one global unknown (sem-vi's step size).
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include <noether/engine/sparse_pattern.hpp>
#include <noether/solvers/linear/linear_solver.hpp>
#include <noether/solvers/newton.hpp>

namespace noether {

/// The border of a tangent [A b; c^T d]: b (column, n), c (row, n) and the corner d. For a system
/// with one unknown s beyond the sparse ones and one equation phi beyond their rows:
/// b = dR/ds, c = dphi/dx, d = dphi/ds.
struct BorderView {
  std::span<const double> column, row;
  double corner = 0.0;
};

/// Solves with the tangent of a Newton system x = (x_A, s), R = (R_A, phi) of n sparse unknowns
/// and one more,
///
///   T = [A   b]   (n + 1 square),   A = dR_A/dx_A on the pattern, b = dR_A/ds, c = dphi/dx_A, d = dphi/ds,
///       [c^T d]
///
/// A factored by a sparse LinearSolver; b, c and d read from `border` at each factorization (at
/// the x of the system's last evaluation with the matrix). The bordered matrix is never formed:
/// block elimination with A's factorization,
///
///   factorize:  z = A^{-1} b,   sigma = d - c.z                (one solve with A)
///   solve:      y = A^{-1} r,   s = (t - c.y) / sigma,   x = y - z s     for T (x, s) = (r, t),
///
/// so a bordered system costs one sparse factorization and one more solve per factorization than
/// A alone, and its dense row and column never enter the sparse factors. (Block elimination
/// needs A itself to be well conditioned; a nearly singular A with a well-conditioned T loses
/// digits [Govaerts1991]. The steppers' A is a fixed-step Newton matrix, nonsingular wherever
/// that step is.) The transposed system uses A's transposed solve the same way.
class BorderedTangentSolver final : public TangentSolver {
 public:
  /// Analyzes A's pattern (which must outlive this); `border` gives b, c (pattern.n each) and d
  /// when factorize is called. Throws std::invalid_argument for no solver or no border.
  BorderedTangentSolver(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern,
                        std::function<BorderView()> border);

  /// n + 1.
  Index size() const override { return pattern_.n + 1; }
  LinearSolverKind kind() const override { return sparse_->kind(); }

  /// Factors T with A's values `matrix` (pattern order) and the border. Fails (a status, as
  /// LinearSolver::factorize) when A is singular, or the Schur complement sigma is not finite or
  /// within 64 ulps of the magnitude of its terms (|d| + sum_i |c_i z_i|).
  FactorizationStatus factorize(std::span<const double> matrix, bool with_norm) override;
  void solve(std::span<const double> rhs, std::span<double> x) override;
  void solve_transposed(std::span<const double> rhs, std::span<double> x) override;
  void forget_factorization() override;
  FactorizationProfile factorization_profile() const override { return sparse_->factorization_profile(); }

 protected:
  double factored_norm1() const override;

 private:
  /// ||T||_1: the largest column sum of |T|.
  double norm1(std::span<const double> values, const BorderView& border) const;

  std::unique_ptr<LinearSolver> sparse_;
  const CscPattern& pattern_;
  std::function<BorderView()> border_;
  std::vector<double> column_, row_, z_;  ///< b, c and A^{-1} b of the factorization
  double sigma_ = 1.0;                     ///< d - c.z
  double norm_ = 0.0;                      ///< ||T||_1 (when factorized with_norm)
  std::vector<double> work_;               ///< n
  bool factorized_ = false;
};

/// The TangentSolverFactory of systems bordered as BorderedTangentSolver, their border from `border`.
TangentSolverFactory bordered_tangent(std::function<BorderView()> border);

}  // namespace noether
