#pragma once
/// Projection of initial values onto the constraint manifold, with the SPD matrix G G^T.
#include <memory>
#include <stdexcept>
#include <vector>

#include <noether/engine/system.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

struct ProjectionOptions {
  /// Positions: stop when max|g(q)| <= tolerance. Velocities: stop when max|G(q) v| <= tolerance.
  double tolerance = 1e-12;
  /// When it holds one entry per constraint row (m), it replaces `tolerance` row by row: stop when
  /// |g_i(q)| <= row_tolerances(i) (or |(G v)_i| <= row_tolerances(i)) for every row i. For rows of
  /// very different magnitudes (solvers/initial_values.hpp).
  Vector row_tolerances = {};
  /// Gauss-Newton steps for positions, refinement sweeps for velocities.
  int max_iterations = 20;
  /// Any backend factors the SPD matrix G G^T; CHOLMOD is made for it.
  LinearSolverKind solver = LinearSolverKind::cholmod;
  /// The time of the state: rheonomic constraints (Constraint::rheonomic) are projected onto
  /// g(q, t) = 0 and G(q, t) v + g_t(q, t) = 0 at it; the others do not read it.
  double time = 0.0;
};

struct ProjectionReport {
  int iterations = 0;      ///< corrections applied
  int factorizations = 0;  ///< numeric factorizations of G G^T
  /// max|g| (positions) or max|G v| (velocities) before each correction and after the last.
  std::vector<double> history;
};

/// G G^T is not positive definite (redundant constraints or a singular configuration), the
/// iteration did not converge, or a value is not finite. The message names the constraint row.
class ProjectionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Minimum-norm projections onto g(q) = 0 and G(q) v = 0 (m = num_multipliers() constraint rows,
/// d = num_coordinates()):
///
///   positions  (Gauss-Newton):  q <- q - G^T (G G^T)^{-1} g(q)   until max|g(q)| <= tolerance,
///   velocities (one exact step plus refinement):  v <- v - G^T (G G^T)^{-1} G v.
///
/// G G^T (m x m) is symmetric positive definite exactly when G has full row rank. Its pattern is
/// the symbolic product of the constraint elements' coordinate sets (rows of two constraints
/// couple when the constraints share a coordinate): built once here with the linear solver's
/// analysis (upper triangle for CHOLMOD, both triangles for the LU backends); each factorization
/// refills the values in place. After each factorization two inverse-iteration solves bound the
/// smallest eigenvalue of the Jacobi-scaled matrix D^{-1/2} G G^T D^{-1/2} (D = diag(G G^T)) from
/// above; a bound below 1e-12 (the rows of G are within about 1e-6 rad of linear dependence), or
/// a failed factorization, raises ProjectionError naming the first constraint row that depends on
/// the rows before it. Both projections factorize at their q before anything else, so the rank is
/// checked even when q, or v, already satisfies the constraints (v = 0 included). The projector
/// uses its system (SystemUse): it shares the ownership of the system when a std::shared_ptr owns
/// it (a Mechanism's system), and the system refuses further elements while it lives; a System
/// owned otherwise must outlive it (engine/system.hpp). Threads: a projector is one thread's at a
/// time (it keeps G and the factorization); several may share one System.
class ConstraintProjector {
 public:
  explicit ConstraintProjector(const System& system, ProjectionOptions options = {});
  ~ConstraintProjector();
  ConstraintProjector(const ConstraintProjector&) = delete;
  ConstraintProjector& operator=(const ConstraintProjector&) = delete;

  /// Projects q (d) onto g(q) = 0 in place.
  ProjectionReport project_positions(VectorRef q);
  /// Projects v (d) onto G(q) v = 0 in place; q (d) is not changed.
  ProjectionReport project_velocities(ConstVectorRef q, VectorRef v);

  /// The pattern of G G^T (m x m).
  const CscPattern& pattern() const { return pattern_; }
  const LinearSolver& linear_solver() const { return *linear_solver_; }

 private:
  void build_jacobian_structure();
  void build_product_pattern(bool upper_triangle_only);
  void calc_jacobian_values(ConstVectorRef q);
  void factorize(const char* what, int iteration);
  [[noreturn]] void fail_rank(const char* what, int iteration, const std::string& backend_message) const;
  /// x = G^T y (d), from the stored G values.
  void apply_transpose(const Vector& y, Vector& x) const;
  /// y = G x (m), from the stored G values.
  void apply(ConstVectorRef x, Vector& y) const;
  /// gv += g_t(q, time) on the rows of the rheonomic constraints (their velocity level G v + g_t).
  void add_rates(ConstVectorRef q, Vector& gv) const;
  void solve(const Vector& b, Vector& x);
  /// Whether the residuals (m; largest: their max|.|) meet the tolerance or the row tolerances.
  bool met(ConstVectorRef residuals, double largest) const;
  /// "max|g| <= 1e-12" or "its row tolerances for |g|", for messages.
  std::string tolerance_text(const char* what) const;

  SystemUse system_use_;  ///< shares the ownership of the system; no element may be added meanwhile
  const System& system_;
  ProjectionOptions options_;
  Index m_ = 0;
  /// G in compressed rows: row r holds the sorted distinct coordinates of its constraint.
  std::vector<Index> g_row_starts_, g_columns_;
  /// Per constraint element, local coordinate j -> offset of its column within each of its rows.
  std::vector<std::vector<Index>> g_local_offsets_;
  std::vector<double> g_values_;
  /// Per slot of G G^T: pairs (a, b) of G value positions with (G G^T)[slot] = sum g[a] g[b].
  std::vector<Index> product_starts_, product_pairs_;
  CscPattern pattern_;
  std::vector<double> values_;
  std::unique_ptr<LinearSolver> linear_solver_;
};

/// One-shot forms of ConstraintProjector (pattern and analysis are built for the call).
ProjectionReport project_positions(const System& system, VectorRef q, const ProjectionOptions& options = {});
ProjectionReport project_velocities(const System& system, ConstVectorRef q, VectorRef v,
                                    const ProjectionOptions& options = {});

}  // namespace noether
