#include <noether/solvers/newton.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>
#include <noether/solvers/condition_estimate.hpp>
#include <noether/solvers/near_null_space.hpp>

namespace noether {
namespace {

std::string format_history(const std::vector<NewtonIterate>& history) {
  std::ostringstream out;
  out.precision(3);
  out << "scaled residual (max|dx|) history:";
  for (const NewtonIterate& it : history)
    out << ' ' << std::scientific << it.scaled_residual << " (" << it.increment_norm << ")";
  return out.str();
}

/// Runs f and adds its wall-clock duration to seconds.
template <class F>
void timed(double& seconds, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string format_value(double value) {
  std::ostringstream out;
  out.precision(3);
  out << std::scientific << value;
  return out.str();
}

/// Full Newton takes chord steps where the last contraction rate predicts the tolerance within
/// this many of them (NewtonOptions).
constexpr int kChordSteps = 2;

/// r above this fraction of the previous r within the tolerance: r sits at its rounding floor,
/// and the iterate is accepted whatever its increment (NewtonOptions). A property of the
/// stopping test, not of the refresh rule's `refresh_contraction`, which it equals by default.
constexpr double kStagnationRate = 0.25;

/// A stalled solve is returned when its best r is within this factor of the tolerance (NewtonOptions).
constexpr double kStalledToleranceFactor = 100.0;

/// Full Newton's rule for an iterate of scaled residual r reached at contraction rate `rate`:
/// take chord steps with the last factorization (NewtonOptions).
bool takes_chord_steps(double r, double rate, const NewtonOptions& options) {
  return (rate <= options.refresh_contraction && r * std::pow(rate, kChordSteps) <= options.residual_tolerance) ||
         r <= options.residual_tolerance;
}

/// |R_i| / scale_i, 0 for R_i = 0 (a row with scale 0 must be exactly 0).
double scaled_entry(double residual, double scale) { return residual == 0.0 ? 0.0 : std::abs(residual) / scale; }

/// The row with the largest scaled entry (a NaN wins, so it gets named).
Index argmax_scaled(ConstVectorRef residual, ConstVectorRef scale) {
  Index worst = 0;
  for (Index i = 1; i < residual.size(); ++i)
    if (!(scaled_entry(residual(i), scale(i)) <= scaled_entry(residual(worst), scale(worst)))) worst = i;
  return worst;
}

/// r = max_i |R_i| / scale_i (NaN when an entry is NaN).
double scaled_norm(ConstVectorRef residual, ConstVectorRef scale) {
  double r = 0.0;
  for (Index i = 0; i < residual.size(); ++i) {
    const double entry = scaled_entry(residual(i), scale(i));
    if (std::isnan(entry)) return entry;  // kept: a later finite entry must not hide it (inf / inf)
    if (entry > r) r = entry;
  }
  return r;
}

/// The largest of a running maximum of magnitudes, NaN once a NaN has been seen (max_abs's rule).
class LargestMagnitude {
 public:
  void add(double value) {
    const double magnitude = std::abs(value);
    if (std::isnan(magnitude)) nan_ = true;
    else if (magnitude > largest_) largest_ = magnitude;
  }
  double value() const { return nan_ ? std::numeric_limits<double>::quiet_NaN() : largest_; }

 private:
  double largest_ = 0.0;
  bool nan_ = false;
};

/// r = max_i |R_i| / scale_i, the stopping test's, and max_i |R_i| of one evaluation.
struct ResidualNorms {
  double scaled = 0.0, largest = 0.0;
};

/// Newton's norms are maxima over the rows; over several processes, each holding some of the rows
/// (a process's part: docs/distributed.md), the largest over the processes, NaN when any is NaN.
/// Where every process holds every row (the replicated model) that changes nothing. nullptr: one
/// process.
double largest_over(const Distribution* processes, double value) {
  if (processes) processes->max({&value, 1});
  return value;
}
ResidualNorms largest_over(const Distribution* processes, ResidualNorms norms) {
  if (!processes) return norms;
  std::array<double, 2> values{norms.scaled, norms.largest};
  processes->max(values);
  return {values[0], values[1]};
}

/// scale_i += floor_i / tolerance (the weights of the stopping test, NewtonOptions), and, in the
/// same walk over the rows, r = max_i |R_i| / scale_i and max_i |R_i| (each NaN when an entry is
/// NaN): one pass over the three vectors of the system's size where three passes would be
/// memory-bound at every iteration.
ResidualNorms weigh_residual(ConstVectorRef residual, VectorRef scale, ConstVectorRef floor,
                             double tolerance) {
  double r = 0.0;
  bool scaled_nan = false;
  LargestMagnitude largest;
  for (Index i = 0; i < residual.size(); ++i) {
    const double weight = scale(i) + floor(i) / tolerance;
    scale(i) = weight;
    const double entry = scaled_entry(residual(i), weight);
    if (std::isnan(entry)) scaled_nan = true;  // kept: a later finite entry must not hide it (inf / inf)
    else if (entry > r) r = entry;
    largest.add(residual(i));
  }
  return {scaled_nan ? std::numeric_limits<double>::quiet_NaN() : r, largest.value()};
}

/// x -= increment in place; returns max|x| of the updated x (NaN when an entry is NaN), in one pass.
double subtract_increment(VectorRef x, ConstVectorRef increment) {
  LargestMagnitude largest;
  for (Index i = 0; i < x.size(); ++i) {
    x(i) -= increment(i);
    largest.add(x(i));
  }
  return largest.value();
}

}  // namespace

namespace {

/// NewtonError's message (its class comment gives the two forms).
std::string newton_error_message(const std::string& context, const std::string& reason,
                                 const std::vector<NewtonIterate>& history, const std::string& worst_row,
                                 double worst_value, double worst_scale, NewtonError::Cause cause) {
  if (cause == NewtonError::Cause::rejected)
    return "no acceptable solution at " + context + ": " + reason + "; " + format_history(history);
  return "Newton failed at " + context + ": " + reason + "; " + format_history(history) +
         (worst_row.empty() ? std::string()
                            : "; largest scaled residual entry " + format_value(worst_value) + " (scale " +
                                  format_value(worst_scale) + ") in " + worst_row);
}

}  // namespace

NewtonError::NewtonError(std::string context, std::string reason, std::vector<NewtonIterate> history,
                         std::string worst_row, double worst_value, double worst_scale, Cause cause)
    : std::runtime_error(newton_error_message(context, reason, history, worst_row, worst_value, worst_scale, cause)),
      context_(std::move(context)),
      reason_(std::move(reason)),
      history_(std::move(history)),
      worst_row_(std::move(worst_row)),
      worst_value_(worst_value),
      worst_scale_(worst_scale),
      cause_(cause) {}

NewtonError NewtonError::rejected_solution(std::string context, std::string reason, std::vector<NewtonIterate> history) {
  return NewtonError(std::move(context), std::move(reason), std::move(history), "", 0.0, 0.0, Cause::rejected);
}

NewtonError NewtonError::in_context(std::string context) const {
  return NewtonError(std::move(context), reason_, history_, worst_row_, worst_value_, worst_scale_, cause_);
}

void check_newton_options(const NewtonOptions& options) {
  const auto positive = [](double value, const char* name, const char* example) {
    if (!(std::isfinite(value) && value > 0.0))
      throw std::invalid_argument(std::string("Newton option ") + name + " must be a finite number > 0 (e.g. " +
                                  example + "), got " + format_number(value));
  };
  positive(options.residual_tolerance, "residual_tolerance", "1e-13");
  positive(options.increment_tolerance, "increment_tolerance", "1e-10");
  if (options.max_iterations < 1)
    throw std::invalid_argument("Newton option max_iterations must be at least 1, got " +
                                std::to_string(options.max_iterations));
  if (!(options.refresh_contraction > 0.0 && options.refresh_contraction < 1.0))
    throw std::invalid_argument("Newton option refresh_contraction must lie strictly between 0 and 1 (e.g. 0.25), got " +
                                format_exact(options.refresh_contraction));
}

namespace {

/// The sparse solver NewtonOptions ask for; throws std::invalid_argument for a factory that makes none.
std::unique_ptr<LinearSolver> make_sparse_solver(LinearSolverChoice choice, const NewtonOptions& options,
                                                 const Distribution* processes, UnknownPlacement placement) {
  check_newton_options(options);
  std::unique_ptr<LinearSolver> solver = options.linear_solver_factory
                                             ? options.linear_solver_factory()
                                             : make_linear_solver(choice.kind, choice.ordering, processes, placement);
  if (!solver) throw std::invalid_argument("NewtonSolver: linear_solver_factory returned no solver");
  return solver;
}

/// make_tangent's solver, or the pattern's matrix itself when make_tangent is unset; throws
/// std::invalid_argument for a factory that makes none.
std::unique_ptr<TangentSolver> make_tangent_solver(const CscPattern& pattern, LinearSolverChoice solver,
                                                   const NewtonOptions& options, const TangentSolverFactory& make_tangent,
                                                   const Distribution* processes,
                                                   UnknownPlacement placement) {
  std::unique_ptr<LinearSolver> sparse = make_sparse_solver(solver, options, processes, placement);
  if (!make_tangent) return std::make_unique<SparseTangentSolver>(std::move(sparse), pattern);
  std::unique_ptr<TangentSolver> tangent = make_tangent(std::move(sparse), pattern);
  if (!tangent) throw std::invalid_argument("NewtonSolver: the tangent solver factory returned no solver");
  return tangent;
}

/// The first column of the matrix (values in pattern order) whose entries are all 0, or -1.
Index first_zero_column(const CscPattern& pattern, std::span<const double> values) {
  for (Index j = 0; j < pattern.n; ++j) {
    const auto begin = values.begin() + pattern.column_starts[static_cast<std::size_t>(j)];
    const auto end = values.begin() + pattern.column_starts[static_cast<std::size_t>(j) + 1];
    if (std::all_of(begin, end, [](double a) { return a == 0.0; })) return j;
  }
  return -1;
}

}  // namespace

NewtonSolver::NewtonSolver(const CscPattern& pattern, LinearSolverChoice solver, NewtonOptions options,
                           const TangentSolverFactory& make_tangent, const Distribution* processes,
                           UnknownPlacement placement)
    : options_(options),
      tangent_(make_tangent_solver(pattern, solver, options_, make_tangent, processes, placement)),
      processes_(processes && processes->ranks() > 1 ? processes : nullptr),
      one_process_(!processes_),
      residual_(tangent_->size()),
      scale_(tangent_->size()),
      floor_(tangent_->size()),
      increment_(tangent_->size()) {}

void NewtonSolver::fail(NewtonSystem& system, const std::string& context, std::string reason,
                        const NewtonReport& report, NewtonError::Cause cause) const {
  if (residual_.size() == 0) throw NewtonError(context, reason, report.history, "an empty system", 0.0, 0.0, cause);
  // Over several processes every one takes the same collective steps here, whatever its cause:
  // one process may see a non-finite entry of its part of the matrix where another sees none.
  const std::string source = cause == NewtonError::Cause::non_finite ? system.describe_non_finite() : "";
  const int source_from = processes_ ? first_process_with(*processes_, !source.empty()) : (source.empty() ? -1 : 0);
  if (source_from >= 0)  // then the worst row is a symptom
    throw NewtonError(context, agreed(source_from, reason + ": " + source), report.history, "", 0.0, 0.0,
                      NewtonError::Cause::non_finite);
  const Index worst = argmax_scaled(residual_, scale_);
  if (!processes_)
    throw NewtonError(context, reason, report.history, system.describe_row(worst), residual_(worst), scale_(worst),
                      cause);
  // Over several processes each holds some rows (its part: docs/distributed.md): the row named is
  // the worst of all, the words and numbers of the lowest process that holds it (each process's
  // reason may differ, too: the matrix it examined is its own part).
  const double mine = scaled_entry(residual_(worst), scale_(worst));
  const double largest = largest_over(processes_, mine);
  const int from = first_process_with(*processes_, mine == largest || (std::isnan(mine) && std::isnan(largest)));
  std::array<double, 2> values{0.0, 0.0};  // residual and scale of the worst row, from its process
  if (processes_->rank() == from) values = {residual_(worst), scale_(worst)};
  processes_->sum(values);
  const bool non_finite = first_process_with(*processes_, cause == NewtonError::Cause::non_finite) >= 0;
  throw NewtonError(context, agreed(from, reason), report.history, agreed(from, system.describe_row(worst)), values[0],
                    values[1], non_finite ? NewtonError::Cause::non_finite : cause);
}

std::string NewtonSolver::agreed(int from, const std::string& text) const {
  return processes_ ? text_of_process(*processes_, from, text) : text;
}

void NewtonSolver::factorize(NewtonSystem& system, const std::string& context, NewtonReport& report,
                             bool estimate_condition) {
  FactorizationStatus status;
  timed(report.timings.factorization,
        [&] { status = tangent_->factorize(system.matrix(), estimate_condition); });
  ++report.factorizations;
  has_factorization_ = status.ok;
  if (status.ok) return;
  // A non-finite entry makes the factorization fail as if the matrix were singular: say which.
  const std::span<const double> matrix = system.matrix();
  const bool finite = std::all_of(matrix.begin(), matrix.end(), [](double a) { return std::isfinite(a); });
  if (!finite)
    fail(system, context, "the Newton matrix has a non-finite entry (" + status.message + ")", report,
         NewtonError::Cause::non_finite);
  std::string reason = "the Newton matrix could not be factorized (" + status.message + ")";
  // Over several processes the matrix here is this process's part: a zero column of it says
  // nothing of the whole.
  const Index column = one_process_ ? first_zero_column(system.pattern(), matrix) : -1;
  const std::string unknown = column >= 0 ? system.describe_unknown(column) : std::string();
  if (!unknown.empty())
    reason += ": the column of " + unknown +
              " is zero, no equation of the step depends on that unknown (a coordinate without mass, stiffness, "
              "damping or constraint: give it an inertia)";
  fail(system, context, reason, report, NewtonError::Cause::singular_matrix);
}

bool NewtonSolver::stalled(const NewtonReport& report, double best_of_second_half, double best_candidate) const {
  const std::size_t half = static_cast<std::size_t>(options_.max_iterations / 2);
  double best_of_first_half = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < half; ++k)
    best_of_first_half = std::min(best_of_first_half, report.history[k].scaled_residual);
  return best_candidate <= kStalledToleranceFactor * options_.residual_tolerance &&
         best_of_second_half > kStagnationRate * best_of_first_half;
}

bool NewtonSolver::increment_is_small(double increment_norm, double x_norm) const {
  return increment_norm <= options_.increment_tolerance * (1.0 + x_norm);
}

void NewtonSolver::forget_factorization() {
  tangent_->forget_factorization();
  has_factorization_ = false;
  quadratic_constant_ = std::numeric_limits<double>::quiet_NaN();
}

void NewtonSolver::check_fits(ConstVectorRef x) const {
  if (x.size() != tangent_->size())
    throw std::invalid_argument("NewtonSolver: made for " + std::to_string(tangent_->size()) + " unknowns, given x of " +
                                std::to_string(x.size()));
}

bool NewtonSolver::refactorizes(double scaled, double rate, int iterations) const {
  if (!has_factorization_) return true;
  // An initial iterate within the tolerance that must be updated (accept_initial_iterate false):
  // with the tangent at it, so that the update's error is quadratic in its own.
  if (iterations == 0 && !options_.accept_initial_iterate && scaled <= options_.residual_tolerance) return true;
  // Full Newton: the iterations reuse the last factorization while the last contraction rate,
  // kept up, would meet the tolerance within kChordSteps of them, and once r meets it (waiting
  // for the increment or stagnation test) whatever they do (NewtonOptions).
  const bool keep = options_.modified ? rate <= options_.refresh_contraction || iterations == 0
                                      : takes_chord_steps(scaled, rate, options_);
  return !keep;
}

void NewtonSolver::update_quadratic_constant(double observed, bool meets_tolerance) {
  // An update that reaches the tolerance may have stopped at the rounding floor: its r_{k+1} is
  // then above C r_k^2, and bounds C without measuring it.
  const bool bound_only = meets_tolerance && !std::isnan(quadratic_constant_);
  quadratic_constant_ = bound_only ? std::min(quadratic_constant_, observed) : observed;
}

bool NewtonSolver::predicts_refactorization(double scaled) const {
  const double C = quadratic_constant_;  // NaN before the first: then a refactorization is predicted
  return !takes_chord_steps(C * scaled * scaled, C * scaled, options_);
}

double NewtonSolver::solve_increment(NewtonSystem& system, const std::string& context, NewtonReport& report) {
  timed(report.timings.solve, [&] {
    tangent_->solve(std::span<const double>(residual_.data(), static_cast<std::size_t>(residual_.size())),
                   std::span<double>(increment_.data(), static_cast<std::size_t>(increment_.size())));
  });
  ++report.iterations;
  const double increment_norm = largest_over(processes_, max_abs(increment_));
  if (!std::isfinite(increment_norm))
    fail(system, context, "the Newton increment is not finite", report, NewtonError::Cause::non_finite);
  return increment_norm;
}

NewtonReport NewtonSolver::solve(NewtonSystem& system, VectorRef x, const std::string& context,
                                 bool estimate_condition) {
  check_fits(x);
  NewtonReport report;
  const bool reuse = options_.modified && has_factorization_;
  ResidualNorms norms;  // of the last evaluation
  const auto evaluate = [&](bool with_matrix) {
    timed(report.timings.assembly, [&] { system.evaluate(x, residual_, scale_, floor_, with_matrix); });
    ++report.evaluations;
    if (with_matrix) ++report.matrix_evaluations;
    // r <= tolerance: |R_i| <= tolerance scale_i + floor_i
    norms = largest_over(processes_, weigh_residual(residual_, scale_, floor_, options_.residual_tolerance));
  };
  evaluate(!reuse);
  bool matrix_is_current = !reuse;
  double increment_norm = 0.0;
  double x_norm = 0.0;  // max|x| after the last update
  bool chord = false;
  const auto estimate_condition_at_end = [&] {  // of the tangent factored last (NewtonSolver::solve)
    if (!estimate_condition) return;
    if (report.factorizations == 0) {  // converged at the start: the estimate is of the tangent there
      if (!matrix_is_current) evaluate(true);
      factorize(system, context, report, true);
    }
    report.condition_estimate = tangent_->condition_estimate();
  };
  double best_of_second_half = std::numeric_limits<double>::infinity();
  double best_candidate = std::numeric_limits<double>::infinity();  // of stalled_best_ (NewtonOptions)
  bool best_is_x = false;  // the best candidate is x itself, not yet copied to stalled_best_
  for (;;) {
    const double scaled = norms.scaled;
    report.history.push_back({scaled, norms.largest, increment_norm, chord});
    if (!std::isfinite(scaled)) fail(system, context, "the residual is not finite", report, NewtonError::Cause::non_finite);
    if (report.iterations >= options_.max_iterations / 2) best_of_second_half = std::min(best_of_second_half, scaled);
    if (scaled < best_candidate && scaled <= kStalledToleranceFactor * options_.residual_tolerance) {
      best_candidate = scaled;  // the iterate returned should the solve stall
      best_is_x = true;         // copied to stalled_best_ only before an update changes x
    }
    const std::size_t count = report.history.size();
    const double rate = count >= 2 ? scaled / report.history[count - 2].scaled_residual : 1.0;
    const bool meets_tolerance = scaled <= options_.residual_tolerance;
    if (count >= 2 && !chord) update_quadratic_constant(rate / report.history[count - 2].scaled_residual, meets_tolerance);
    const bool stagnated = count >= 2 && scaled > kStagnationRate * report.history[count - 2].scaled_residual;
    const bool ends = report.iterations == 0 ? options_.accept_initial_iterate
                                             : stagnated || increment_is_small(increment_norm, x_norm);
    if (meets_tolerance && ends) {
      estimate_condition_at_end();
      return report;
    }
    if (report.iterations == options_.max_iterations) {  // the last iterate: stalled, within the tolerance, or a failure
      if (stalled(report, best_of_second_half, best_candidate)) {
        if (!best_is_x) x = stalled_best_;
        if (system.reads_last_evaluation()) evaluate(false);
        report.stalled_residual = best_candidate;
      } else if (!meets_tolerance) {
        fail(system, context, "no convergence in " + std::to_string(options_.max_iterations) + " iterations", report,
             NewtonError::Cause::no_convergence);
      }
      estimate_condition_at_end();
      return report;
    }
    const bool refresh = refactorizes(scaled, rate, report.iterations);
    if (refresh) {
      if (!matrix_is_current) evaluate(true);
      factorize(system, context, report, estimate_condition);
    }
    chord = !refresh;
    // Checked (in solve_increment) before the update, so that x stays the iterate whose
    // evaluation can be examined.
    increment_norm = solve_increment(system, context, report);
    if (best_is_x) stalled_best_ = x;
    best_is_x = false;
    x_norm = largest_over(processes_, subtract_increment(x, increment_));
    // r met the tolerance at the iterate this update starts from, and the update meets the
    // increment tolerance: the evaluation would only confirm (NewtonOptions), unless the system's
    // owner reads it.
    if (meets_tolerance && increment_is_small(increment_norm, x_norm) && !system.reads_last_evaluation()) {
      report.last_update_unevaluated = true;
      estimate_condition_at_end();
      return report;
    }
    // After a chord step the next iterate is accepted or takes another chord step, almost always:
    // its matrix would go unused. After a refactorization the same holds where the last quadratic
    // constant predicts chord steps there. Should the iterate need a refactorization after all,
    // the refresh above evaluates its matrix first.
    const bool matrix_wanted = !options_.modified && refresh && predicts_refactorization(scaled);
    evaluate(matrix_wanted);
    matrix_is_current = matrix_wanted;
  }
}

NewtonReport NewtonSolver::solve_off_near_null_space(NewtonSystem& system, VectorRef x, const std::string& context,
                                                     bool estimate_condition) {
  check_fits(x);
  NewtonReport report;
  const double tolerance = options_.residual_tolerance;
  const double threshold =
      std::numeric_limits<double>::epsilon() / (options_.increment_tolerance * (1.0 + largest_over(processes_, max_abs(x))));
  const auto span = [](auto& v) { return std::span<double>(v.data(), static_cast<std::size_t>(v.size())); };
  Vector out(tangent_->size()), scaled_residual(tangent_->size());
  double increment_norm = 0.0;
  for (;;) {
    timed(report.timings.assembly, [&] { system.evaluate(x, residual_, scale_, floor_, true); });
    ++report.evaluations;
    ++report.matrix_evaluations;
    scale_ += floor_ / tolerance;
    const ResidualNorms norms = largest_over(processes_, {scaled_norm(residual_, scale_), max_abs(residual_)});
    const double scaled = norms.scaled;
    report.history.push_back({scaled, norms.largest, increment_norm, false});
    if (!std::isfinite(scaled)) fail(system, context, "the residual is not finite", report, NewtonError::Cause::non_finite);
    const std::size_t count = report.history.size();
    const bool stagnated = count >= 2 && scaled > kStagnationRate * report.history[count - 2].scaled_residual;
    const bool ends =
        stagnated || increment_is_small(increment_norm, largest_over(processes_, max_abs(x))) || report.iterations == options_.max_iterations;
    if (report.iterations > 0 && scaled <= tolerance && ends) break;  // x evaluated: the system's last evaluation is x's
    if (report.iterations == options_.max_iterations)
      fail(system, context,
           "no convergence in " + std::to_string(options_.max_iterations) + " iterations off the near null space",
           report, NewtonError::Cause::no_convergence);
    factorize(system, context, report, estimate_condition);
    const Matrix directions = near_null_left_directions(
        tangent_->size(), scale_, threshold,
        [&](VectorRef v) {
          tangent_->solve(span(v), span(out));
          v = out;
        },
        [&](VectorRef v) {
          tangent_->solve_transposed(span(v), span(out));
          v = out;
        });
    report.near_null_directions = std::max(report.near_null_directions, static_cast<int>(directions.cols()));
    // The components of the scaled residual W^{-1} R along the u_i that lie within the tolerance's
    // share, tol / (2k), are left out of the update (a row of weight 0 has none).
    scaled_residual.setZero();
    for (Index i = 0; i < residual_.size(); ++i)
      if (scale_(i) > 0.0) scaled_residual(i) = residual_(i) / scale_(i);
    Vector components = directions.transpose() * scaled_residual;
    const double share = tolerance / (2.0 * static_cast<double>(std::max<Index>(components.size(), 1)));
    for (Index j = 0; j < components.size(); ++j)
      if (std::abs(components(j)) > share) components(j) = 0.0;
    residual_ -= scale_.asDiagonal() * (directions * components);
    increment_norm = solve_increment(system, context, report);
    x -= increment_;
  }
  if (estimate_condition) report.condition_estimate = tangent_->condition_estimate();
  return report;
}

double TangentSolver::condition_estimate() {
  const double norm = factored_norm1();
  Vector out(size());
  const auto span = [](auto& v) { return std::span<double>(v.data(), static_cast<std::size_t>(v.size())); };
  const double inverse = estimate_inverse_norm1(
      size(),
      [&](VectorRef x) {
        solve(span(x), span(out));
        x = out;
      },
      [&](VectorRef x) {
        solve_transposed(span(x), span(out));
        x = out;
      });
  return norm * inverse;
}

SparseTangentSolver::SparseTangentSolver(std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern)
    : sparse_(std::move(sparse)), pattern_(pattern) {
  if (!sparse_) throw std::invalid_argument("SparseTangentSolver: no sparse solver");
  sparse_->analyze_pattern(pattern_);
}

FactorizationStatus SparseTangentSolver::factorize(std::span<const double> matrix, bool with_norm) {
  factorized_ = false;
  norm_ = std::numeric_limits<double>::quiet_NaN();
  if (with_norm) {
    norm_ = 0.0;
    for (Index j = 0; j < pattern_.n; ++j) {
      double column = 0.0;
      for (Index k = pattern_.column_starts[static_cast<std::size_t>(j)];
           k < pattern_.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
        column += std::abs(matrix[static_cast<std::size_t>(k)]);
      norm_ = std::max(norm_, column);
    }
  }
  const FactorizationStatus status = sparse_->factorize(matrix);
  factorized_ = status.ok;
  return status;
}

void SparseTangentSolver::solve(std::span<const double> rhs, std::span<double> x) {
  check_solve_sizes("Newton tangent", size(), rhs, x);
  if (!factorized_) throw LinearSolverError("Newton tangent: solve called without a successful factorization");
  sparse_->solve(rhs, x);
}

void SparseTangentSolver::solve_transposed(std::span<const double> rhs, std::span<double> x) {
  check_solve_sizes("Newton tangent", size(), rhs, x);
  if (!factorized_) throw LinearSolverError("Newton tangent: solve called without a successful factorization");
  sparse_->solve_transposed(rhs, x);
}

void SparseTangentSolver::forget_factorization() {
  sparse_->forget_factorization();
  factorized_ = false;
}

double SparseTangentSolver::factored_norm1() const {
  if (!factorized_) throw LinearSolverError("Newton tangent: condition_estimate called without a factorization");
  return norm_;
}

}  // namespace noether
