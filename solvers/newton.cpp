#include <noether/solvers/newton.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>

namespace noether {
namespace {

std::string format_history(const std::vector<NewtonIterate>& history) {
  std::ostringstream out;
  out.precision(3);
  out << "max|R| (max|dx|) history:";
  for (const NewtonIterate& it : history)
    out << ' ' << std::scientific << it.residual_norm << " (" << it.increment_norm << ")";
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

Index argmax_abs(ConstVectorRef x) {
  Index worst = 0;
  for (Index i = 1; i < x.size(); ++i)
    if (!(std::abs(x(i)) <= std::abs(x(worst)))) worst = i;  // NaN wins, so it gets named
  return worst;
}

}  // namespace

NewtonError::NewtonError(std::string context, std::string reason, std::vector<NewtonIterate> history,
                         std::string worst_row, double worst_value)
    : std::runtime_error("Newton failed at " + context + ": " + reason + "; " + format_history(history) +
                         "; largest residual entry " + format_value(worst_value) + " in " + worst_row),
      context_(std::move(context)),
      reason_(std::move(reason)),
      history_(std::move(history)),
      worst_row_(std::move(worst_row)),
      worst_value_(worst_value) {}

void check_newton_options(const NewtonOptions& options) {
  const auto positive = [](double value, const char* name, const char* example) {
    if (!(std::isfinite(value) && value > 0.0))
      throw std::invalid_argument(std::string("Newton option ") + name + " must be a finite number > 0 (e.g. " +
                                  example + "), got " + format_number(value));
  };
  positive(options.residual_tolerance, "residual_tolerance", "1e-10");
  positive(options.increment_tolerance, "increment_tolerance", "1e-10");
  if (options.max_iterations < 1)
    throw std::invalid_argument("Newton option max_iterations must be at least 1, got " +
                                std::to_string(options.max_iterations));
  if (!(options.refresh_contraction > 0.0 && options.refresh_contraction < 1.0))
    throw std::invalid_argument("Newton option refresh_contraction must lie strictly between 0 and 1 (e.g. 0.25), got " +
                                format_number(options.refresh_contraction));
}

NewtonSolver::NewtonSolver(const CscPattern& pattern, LinearSolverKind kind, NewtonOptions options)
    : options_(options),
      linear_solver_(options.linear_solver_factory ? options.linear_solver_factory() : make_linear_solver(kind)),
      residual_(pattern.n),
      increment_(pattern.n) {
  check_newton_options(options_);
  if (!linear_solver_) throw std::invalid_argument("NewtonSolver: linear_solver_factory returned no solver");
  linear_solver_->analyze_pattern(pattern);
}

void NewtonSolver::fail(NewtonSystem& system, const std::string& context, const std::string& reason,
                        const NewtonReport& report) const {
  const Index worst = residual_.size() > 0 ? argmax_abs(residual_) : 0;
  const std::string owner = residual_.size() > 0 ? system.describe_row(worst) : "an empty system";
  const double value = residual_.size() > 0 ? residual_(worst) : 0.0;
  throw NewtonError(context, reason, report.history, owner, value);
}

NewtonReport NewtonSolver::solve(NewtonSystem& system, VectorRef x, const std::string& context) {
  NewtonReport report;
  const bool reuse = options_.modified && has_factorization_;
  NewtonTimings& time = report.timings;
  timed(time.assembly, [&] { system.evaluate(x, residual_, !reuse); });
  bool matrix_is_current = !reuse;
  double increment_norm = 0.0;
  for (;;) {
    const double residual_norm = max_abs(residual_);
    report.history.push_back({residual_norm, increment_norm});
    if (!std::isfinite(residual_norm)) fail(system, context, "the residual is not finite", report);
    const std::size_t count = report.history.size();
    const bool increment_small = report.iterations == 0 ||
                                 increment_norm <= options_.increment_tolerance * (1.0 + max_abs(x));
    const bool stagnated = count >= 2 && residual_norm > 0.25 * report.history[count - 2].residual_norm;
    if (residual_norm <= options_.residual_tolerance && (increment_small || stagnated)) return report;
    if (report.iterations == options_.max_iterations)
      fail(system, context, "no convergence in " + std::to_string(options_.max_iterations) + " iterations", report);

    const bool contracting = count >= 2 && residual_norm <= options_.refresh_contraction * report.history[count - 2].residual_norm;
    // Full Newton: once max|R| meets the tolerance, the iterations that wait for the increment or
    // stagnation test reuse the last factorization (NewtonOptions).
    const bool keep = options_.modified ? contracting || report.iterations == 0
                                        : residual_norm <= options_.residual_tolerance;
    const bool refresh = !has_factorization_ || !keep;
    if (refresh) {
      if (!matrix_is_current) timed(time.assembly, [&] { system.evaluate(x, residual_, true); });
      FactorizationStatus status;
      timed(time.factorization, [&] { status = linear_solver_->factorize(system.matrix()); });
      ++report.factorizations;
      has_factorization_ = status.ok;
      if (!status.ok) fail(system, context, "the Newton matrix could not be factorized (" + status.message + ")", report);
    }
    timed(time.solve, [&] {
      linear_solver_->solve(std::span<const double>(residual_.data(), static_cast<std::size_t>(residual_.size())),
                            std::span<double>(increment_.data(), static_cast<std::size_t>(increment_.size())));
    });
    ++report.iterations;
    x -= increment_;
    increment_norm = max_abs(increment_);
    if (!std::isfinite(increment_norm)) fail(system, context, "the Newton increment is not finite", report);
    // After a chord step the next iterate is in the tolerance too, almost always, and is accepted
    // or takes another chord step: its matrix would go unused. Should it fall outside the
    // tolerance, the refresh above evaluates the matrix at it first.
    const bool matrix_wanted = !options_.modified && refresh;
    timed(time.assembly, [&] { system.evaluate(x, residual_, matrix_wanted); });
    matrix_is_current = matrix_wanted;
  }
}

}  // namespace noether
