#pragma once
/// Newton's method on a sparse nonlinear system with a fixed pattern, and the tangent solver
/// through which it factors and solves with the system's tangent.
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <noether/engine/distribution.hpp>
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
  /// The sparse solver's FactorizationProfile (LinearSolver::factorization_profile).
  virtual FactorizationProfile factorization_profile() const = 0;

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
  FactorizationProfile factorization_profile() const override { return sparse_->factorization_profile(); }

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

/// A square nonlinear system R(x) = 0 of n unknowns whose matrix A = dR/dx has a fixed sparsity
/// pattern. NewtonSolver solves with its tangent through a TangentSolver: A itself by default
/// (n = pattern().n), or a system built around A with the unknowns it adds (n = the
/// TangentSolver's size(); sem-vi's step size borders A: solvers/bordered_solver.hpp).
class NewtonSystem {
 public:
  virtual ~NewtonSystem() = default;
  virtual const CscPattern& pattern() const = 0;
  /// Overwrites residual with R(x) (n); scale (n, >= 0) with the magnitude of the terms that make
  /// up each row of R at x (row i can be computed no closer to 0 than a few rounding errors of
  /// scale_i); floor (n, >= 0) with the rounding floor of each row where its terms may all vanish
  /// (0 where they cannot); and, when with_matrix, the system's matrix() with dR/dx. Without the
  /// matrix a system may give the scale and floor of an earlier evaluation with it at a nearby x
  /// instead (the steppers' step equations give those of the last one in the same solve): Newton
  /// evaluates without the matrix only where it predicts chord steps, so the magnitudes have moved
  /// by the last increments alone.
  virtual void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor,
                        bool with_matrix) = 0;
  /// dR/dx at the x of the last evaluate with_matrix, in pattern order (pattern().nnz()). The
  /// system owns it, so it may keep the entries that do not depend on x from one evaluate to the next.
  virtual std::span<const double> matrix() const = 0;
  /// Who owns residual row i, for error messages: "constraint 'P4' row 1", "coordinate bar3.phi.x".
  virtual std::string describe_row(Index row) const = 0;
  /// What unknown i of a mechanism's step is, for error messages: "coordinate bar3.phi.x",
  /// "constraint 'P4' row 1"; "" for a system of other unknowns. Newton names the unknown of a zero
  /// column of a singular matrix with it (a coordinate that nothing acts on).
  virtual std::string describe_unknown(Index /*i*/) const { return {}; }
  /// Whether the caller reads what the last evaluate computed at Newton's solution (sem-vi's
  /// sums of its global row): Newton then evaluates every x it returns; otherwise it may return an update
  /// it did not evaluate (NewtonOptions).
  virtual bool reads_last_evaluation() const { return false; }
  /// Which part of the system gives a non-finite residual or matrix entry at the x of the last
  /// evaluate ("potential 'bad' gives a non-finite residual entry (nan)"), or "" when it cannot
  /// tell; asked only when Newton fails on a non-finite value.
  virtual std::string describe_non_finite() const { return {}; }
};

struct NewtonOptions {
  /// Stopping test: r = max_i |R_i| / w_i, w_i = scale_i + floor_i / residual_tolerance
  /// (NewtonSystem::evaluate), so r <= residual_tolerance means every row is within the tolerance
  /// relative to the magnitude of its terms, or within its rounding floor where its terms all
  /// vanish (a body at rest). It means the same for any inertia and any number of bodies: there is
  /// no absolute tolerance to tune (a row with scale and floor 0 must be exactly 0). Converged when
  /// r <= residual_tolerance and either R(x0) already met it (unless accept_initial_iterate is
  /// false), or the last increment satisfies max|dx| <= increment_tolerance * (1 + max|x|), or r
  /// stopped decreasing (r > 1/4 of the previous one): r then sits at its rounding floor, and the
  /// increments are rounding noise amplified by the matrix.
  ///
  /// An update from an iterate that met the residual tolerance, itself meeting the increment
  /// tolerance, ends the solve unevaluated unless the system reads its last evaluation
  /// (NewtonSystem::reads_last_evaluation): it follows a contraction of r by 1/4 or better, so it
  /// contracts r again, and its second-order term, quadratic in max|dx|, is below rounding; the
  /// evaluation could only confirm it, and the result is the same bits as with it.
  ///
  /// Full Newton refactorizes until the last contraction rate rho = r_k/r_{k-1} predicts the
  /// tolerance within two chord steps (rho <= 1/4 and r_k rho^2 <= residual_tolerance), then takes
  /// chord steps while that prediction holds or r meets the tolerance: after a Newton step the old
  /// and new tangents differ by ~ r_{k-1}, so a chord step contracts by about rho (after chord
  /// steps rho is their observed rate). A factorization is thus taken only where chord steps would
  /// take longer: far from the solution, or where they contract slowly. The iterate after a chord
  /// step is evaluated without the matrix, and so is the iterate after a refactorization where the
  /// quadratic constant C = r_{k+1} / r_k^2 of the last update with a fresh factorization (in this
  /// solve or an earlier one) predicts chord steps; should it need a refactorization after all, the
  /// matrix is evaluated there first. An update whose r_{k+1} reaches the tolerance may have stopped
  /// at the rounding floor, which says only that C <= r_{k+1} / r_k^2 (10^10 on long chains, where
  /// it would predict refactorizations the rule does not take): such an update lowers C to that
  /// bound, and sets it only while there is none. The iterates are the same bits either way.
  ///
  /// A solve that runs out of iterations returns its best iterate instead of failing
  /// (NewtonReport::stalled_residual) when the best r of its second half of iterates is no better
  /// than kStagnationRate (1/4) times the best r of its first half and the best r of all its
  /// iterates is within kStalledToleranceFactor (100) times the tolerance: r has stopped at a floor
  /// the rows' rounding floors miss, as where a step ends at or near a singular configuration of
  /// its constraints. There the multipliers along the near null space of G are set by rounding
  /// alone, amplified by the inverse of G's vanishing singular values: each update moves them by
  /// far more than the solution's size, and those moves enter the next residual through the
  /// terms bilinear in them and the positions, so that r can lie ten times higher for the rest of
  /// the solve than at an early iterate. The iterate returned is therefore the best of the whole
  /// solve, not of its second half (docs/notebook.md, "Stalled steps near singular
  /// configurations"). Solves that converge are untouched.
  /// The caller learns of it from the report, and may solve another problem instead (a stepper
  /// splits such a step so that its inner nodes leave the singular instant, and failing that
  /// solves it with solve_off_near_null_space).
  /// A solve at its last iteration whose iterate meets the residual tolerance returns it: the
  /// increment or stagnation test that would confirm it needs one more iteration, so without this
  /// max_iterations = 1 could never succeed (a linear step converges in one).
  ///
  /// Figures for each rule: docs/notebook.md, "The unevaluated last update", "Chord steps where the
  /// contraction predicts the tolerance", "The matrix after a refactorization, predicted" and "A
  /// step ending at a singular configuration". residual_tolerance = 1e-13 keeps the
  /// energy-conserving steppers' energy increments per step near rounding (1e-12 lets them grow
  /// sixfold: docs/notebook.md, "Figures moved from code comments").
  double residual_tolerance = 1e-13;
  double increment_tolerance = 1e-10;
  int max_iterations = 30;
  /// Whether the initial iterate x0 may be returned because R(x0) meets the residual tolerance.
  /// Every other iterate full Newton returns follows an update that met the increment test (or
  /// sits at the rounding floor): its error is quadratic in an increment of at most
  /// increment_tolerance (1 + max|x|), ~1e-20, below rounding (modified Newton's: linear, at its
  /// rate). x0 alone is accepted on its residual, off by what the tolerance allows whatever h; a
  /// caller whose steps must be accurate beyond that (a composition's substeps:
  /// steppers/composition.hpp; a scheme's steps from its warm start: scheme_newton_options,
  /// steppers/scheme_stepper_impl.hpp) sets this false. An x0 within the tolerance is then updated once
  /// with the tangent factored at it (by modified Newton too: a kept factorization of another
  /// step's tangent would leave an error linear in x0's, possibly larger), and that update, when it
  /// meets the increment tolerance, ends the solve unevaluated as above, quadratic in x0's error.
  bool accept_initial_iterate = true;
  /// Modified Newton: keep the last factorization (also across steps) while each iteration
  /// reduces r at least by refresh_contraction; refactorize at the current iterate otherwise.
  bool modified = false;
  double refresh_contraction = 0.25;
  /// When set, makes the linear solver instead of make_linear_solver(kind) (the benchmarks use it
  /// to instrument a backend or choose a backend's own options, e.g. UMFPACK's strategy); the
  /// stepper's checks still see the kind given in StepperOptions.
  std::function<std::unique_ptr<LinearSolver>()> linear_solver_factory;
};

struct NewtonIterate {
  double scaled_residual = 0.0; ///< r = max_i |R_i| / w_i at the iterate (NewtonOptions)
  double residual_norm = 0.0;   ///< max|R| at the iterate
  double increment_norm = 0.0;  ///< max|dx| of the update that led to it (0 for the first)
  /// The update that led to it reused a factorization of an earlier iterate (a chord step; false
  /// for the first iterate and after a refactorization at the previous one).
  bool chord = false;
};

/// Wall-clock seconds spent in each phase of a Newton solve.
struct NewtonTimings {
  double assembly = 0.0;       ///< residual and matrix evaluations (NewtonSystem::evaluate)
  double factorization = 0.0;  ///< numeric factorizations
  double solve = 0.0;          ///< triangular solves
};

struct NewtonReport {
  int iterations = 0;      ///< linear solves performed
  /// The solution is the last update of an iterate that met the residual tolerance, not
  /// evaluated (NewtonOptions): history then ends at that iterate and holds `iterations` entries,
  /// otherwise iterations + 1.
  bool last_update_unevaluated = false;
  int factorizations = 0;  ///< numeric factorizations performed
  /// NewtonSystem::evaluate calls: the first iterate and every update but an unevaluated last one
  /// (iterations + 1, one fewer when last_update_unevaluated), plus the evaluations that only add
  /// the matrix at an iterate evaluated without it (a refactorization there, or the condition
  /// estimate of a solve that converged at its start).
  int evaluations = 0;
  /// Of the evaluations, those with the matrix (NewtonSystem::evaluate's with_matrix); at least the
  /// factorizations, fewer than the evaluations where chord steps take residuals alone.
  int matrix_evaluations = 0;
  std::vector<NewtonIterate> history;
  NewtonTimings timings;
  /// 0 when the solve converged by the stopping test; otherwise it ended stalled (NewtonOptions)
  /// and this is the scaled residual r of the iterate it returned (at most 100 times the
  /// tolerance; history still ends with the last iterate, which is not the one returned).
  double stalled_residual = 0.0;
  /// The most directions solve_off_near_null_space left out of an update (NewtonSolver); 0 for solve.
  int near_null_directions = 0;
  /// kappa_1 of the tangent last factorized, estimated (NewtonSolver::solve's estimate_condition;
  /// NaN when not asked for, or when there is no factorization).
  double condition_estimate = std::numeric_limits<double>::quiet_NaN();
};

/// Newton did not converge, met a singular tangent, or produced a non-finite value; or it
/// converged to a solution the caller cannot accept (rejected_solution). The message:
/// "Newton failed at <context>: <reason>; <history>; largest scaled residual entry <value> (scale
/// <scale>) in <worst row>", the last part left out when worst_row is empty; for a rejected
/// solution "no acceptable solution at <context>: <reason>; <history>".
class NewtonError : public std::runtime_error {
 public:
  enum class Cause { no_convergence, singular_matrix, non_finite, rejected };

  NewtonError(std::string context, std::string reason, std::vector<NewtonIterate> history,
               std::string worst_row, double worst_value, double worst_scale, Cause cause = Cause::no_convergence);
  /// Newton converged, but to a solution the caller cannot take (a step of the wrong sign, say);
  /// no residual row is to blame: worst_row() is empty.
  static NewtonError rejected_solution(std::string context, std::string reason, std::vector<NewtonIterate> history);
  /// The same failure in another context (a refined step names its substep).
  NewtonError in_context(std::string context) const;
  const std::string& context() const { return context_; }
  const std::string& reason() const { return reason_; }
  Cause cause() const { return cause_; }
  const std::vector<NewtonIterate>& history() const { return history_; }
  /// Owner of the residual entry with the largest scaled value at the last iterate, and that entry.
  const std::string& worst_row() const { return worst_row_; }
  double worst_value() const { return worst_value_; }
  double worst_scale() const { return worst_scale_; }

 private:
  std::string context_, reason_;
  std::vector<NewtonIterate> history_;
  std::string worst_row_;
  double worst_value_, worst_scale_;
  Cause cause_;
};

/// Throws std::invalid_argument naming the option and its value unless the tolerances are finite
/// and > 0, max_iterations >= 1 and 0 < refresh_contraction < 1. (A tolerance of 0 could only be
/// met by a residual of exactly 0: Newton would run to its iteration limit at the rounding floor.)
void check_newton_options(const NewtonOptions& options);

/// Owns the tangent solver for one pattern (analyzed once at construction) and runs Newton.
/// Threads: one thread's at a time (it keeps the factorization); a stepper owns one.
class NewtonSolver {
 public:
  /// make_tangent: makes the tangent solver from the sparse solver `solver` chooses (or
  /// options.linear_solver_factory's); unset, the tangent is the pattern's matrix itself
  /// (SparseTangentSolver). processes: those that assemble the system together
  /// (engine/distribution.hpp; nullptr for one), whose matrix parts the linear solver sums, and
  /// placement where the unknowns lie among those parts (make_linear_solver); over several
  /// processes its norms are maxima over them (Distribution::max). Throws
  /// std::invalid_argument for options check_newton_options refuses and LinearSolverError for an
  /// ordering the kind does not take (make_linear_solver).
  NewtonSolver(const CscPattern& pattern, LinearSolverChoice solver, NewtonOptions options,
               const TangentSolverFactory& make_tangent = {}, const Distribution* processes = nullptr,
               UnknownPlacement placement = {});

  /// Solves R(x) = 0 starting from x (overwritten with the solution; the tangent solver's size()
  /// entries). context names the step ("step 812, t = 8.12") in a NewtonError; x is left at the
  /// last iterate on failure. Throws std::invalid_argument for x of another size.
  /// estimate_condition: also estimate the 1-norm condition number of the tangent factored last
  /// (NewtonReport::condition_estimate): ||T||_1 at every factorization of the solve, and Higham's
  /// estimate of ||T^{-1}||_1 at its end, up to 6 solves with T and 4 with T^T; a solve that
  /// converges without factorizing factorizes the tangent at its start for the estimate.
  NewtonReport solve(NewtonSystem& system, VectorRef x, const std::string& context, bool estimate_condition = false);

  /// Newton for a caller whose solve stalled or failed where its tangent is numerically singular
  /// (a step's node at a singular configuration of its constraints: take_step_off_singular_nodes,
  /// steppers/stepper.hpp): full Newton, a factorization at every iterate, whose updates leave out
  /// what rounding alone would set. With W = diag(w_i) the stopping test's weights (NewtonOptions)
  /// and u_i the left singular vectors of the row-scaled tangent W^{-1} T whose singular values
  /// sigma_i lie below eps / (increment_tolerance (1 + max|x0|)) (near_null_left_directions,
  /// solvers/near_null_space.hpp), the update solves T dx = R - W sum_i u_i c_i for the
  /// components c_i = u_i^T W^{-1} R within the tolerance's share, residual_tolerance / (2k) of k
  /// directions: such a component, rounding included, would move x along the right singular
  /// vector v_i by c_i / sigma_i, beyond the increment tolerance, to settle what the stopping test
  /// already accepts. At a singular configuration the v_i are the multipliers along the lost rank
  /// (with the positions along its direction, by sigma / |T| of that): full Newton moves them by
  /// the rounding amplified by 1/sigma_i^2, and those moves, re-entering the residual through its
  /// terms bilinear in multipliers and positions, keep r above the tolerance (NewtonOptions, the
  /// stalled solve). Left out, x keeps x0's component along them (a stepper's warm start,
  /// extrapolated from its last steps) and the rest converges as any well-conditioned system does;
  /// a component above the share (what x0 leaves along v_i that the equations do fix) is solved
  /// as in full Newton. The stopping test is solve's on the whole residual (no initial iterate
  /// accepted, no stalled return): a NewtonError "no convergence in N iterations off the near null
  /// space" otherwise, x left at the last iterate. Costs, per iterate, a factorization and 7 k
  /// solves with T and T^T for each block of k columns near_null_left_directions tries (k = 4,
  /// doubled while all of a block lies below the threshold).
  NewtonReport solve_off_near_null_space(NewtonSystem& system, VectorRef x, const std::string& context,
                                         bool estimate_condition = false);

  const NewtonOptions& options() const { return options_; }
  LinearSolverKind solver_kind() const { return tangent_->kind(); }
  /// The linear solver's ordering and fill (LinearSolver::factorization_profile).
  FactorizationProfile factorization_profile() const { return tangent_->factorization_profile(); }
  /// Drops the factorization kept between solves (modified Newton's, KLU's pivot sequence) and the
  /// last quadratic constant, so that the next solve runs as a new solver's first one, with the
  /// same iterates, factorizations and evaluations (LinearSolver::forget_factorization).
  void forget_factorization();

 private:
  /// Factorizes system.matrix() (counted and timed in report); fails the solve when it cannot.
  void factorize(NewtonSystem& system, const std::string& context, NewtonReport& report, bool estimate_condition);
  /// Throws std::invalid_argument unless x has the tangent's size.
  void check_fits(ConstVectorRef x) const;
  /// Whether the iteration refactorizes at an iterate of scaled residual `scaled`, reached at the
  /// contraction rate `rate` after `iterations` updates (NewtonOptions: full or modified Newton).
  bool refactorizes(double scaled, double rate, int iterations) const;
  /// Whether full Newton will refactorize at the iterate after an update, made with a fresh
  /// factorization, from one of scaled residual `scaled`: r_{k+1} ~ C r_k^2 at the rate C r_k
  /// with the last quadratic constant C (true while there is none).
  bool predicts_refactorization(double scaled) const;
  /// quadratic_constant_ after an update with a fresh factorization that observed
  /// r_{k+1} / r_k^2 = `observed`: set to it, or where r_{k+1} meets the tolerance lowered to it
  /// (NewtonOptions).
  void update_quadratic_constant(double observed, bool meets_tolerance);
  /// increment_ = T^{-1} residual_ (timed and counted in report); returns max|increment_|.
  /// Fails the solve when it is not finite.
  double solve_increment(NewtonSystem& system, const std::string& context, NewtonReport& report);
  /// The increment test of NewtonOptions: max|dx| <= increment_tolerance * (1 + max|x|), with
  /// x_norm = max|x|.
  bool increment_is_small(double increment_norm, double x_norm) const;
  /// Throws the NewtonError of `cause`; for a non-finite value its reason names the part of the
  /// system that gave it (NewtonSystem::describe_non_finite). Over several processes, collective:
  /// every process throws the same error, naming the worst row of all and the reason of the
  /// process that holds it (non-finite when any process saw a non-finite value).
  [[noreturn]] void fail(NewtonSystem& system, const std::string& context, std::string reason,
                         const NewtonReport& report, NewtonError::Cause cause) const;
  /// Over several processes, process `from`'s text on every one (text_of_process); `text` itself
  /// in one process. Collective.
  std::string agreed(int from, const std::string& text) const;

  NewtonOptions options_;
  std::unique_ptr<TangentSolver> tangent_;
  const Distribution* processes_;  ///< nullptr in one process
  bool one_process_;  ///< the system is not assembled over several processes
  /// Whether the solve of `report`, out of iterations, ended stalled (NewtonOptions), given the
  /// best r among the iterates of its second half and among all its iterates within
  /// kStalledToleranceFactor times the tolerance (infinity for none).
  bool stalled(const NewtonReport& report, double best_of_second_half, double best_candidate) const;

  Vector residual_, scale_, floor_, increment_;
  Vector stalled_best_;  ///< the iterate of least r of the solve, once one is within 100 times the tolerance
  bool has_factorization_ = false;
  /// C of r_{k+1} = C r_k^2 at the last update made with a fresh factorization, over all solves
  /// (NaN before the first; update_quadratic_constant): predicts whether the matrix after a
  /// refactorization will be needed.
  double quadratic_constant_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace noether
