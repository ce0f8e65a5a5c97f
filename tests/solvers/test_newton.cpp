#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/solvers/initial_values.hpp>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/solvers/newton.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/noisy_line.hpp"

using namespace noether;
using testing::NoisyLine;

namespace {

/// R(x) = (x0^2 + x1^2 - 4, x0 x1 - 1): a circle and a hyperbola; dense 2 x 2 tangent.
class CircleHyperbola final : public NewtonSystem {
 public:
  CircleHyperbola() {
    pattern_.n = 2;
    pattern_.column_starts = {0, 2, 4};
    pattern_.row_indices = {0, 1, 0, 1};
  }
  const CscPattern& pattern() const override { return pattern_; }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool with_matrix) override {
    floor.setZero();
    ++evaluations;
    matrix_evaluations += with_matrix;
    residual(0) = x(0) * x(0) + x(1) * x(1) - 4.0;
    residual(1) = x(0) * x(1) - 1.0 + (poison_row_1 ? std::numeric_limits<double>::quiet_NaN() : 0.0);
    scale(0) = x(0) * x(0) + x(1) * x(1) + 4.0;  // the terms' magnitudes
    scale(1) = std::abs(x(0) * x(1)) + 1.0;
    if (!with_matrix) return;
    values_[0] = 2.0 * x(0);  // dR0/dx0
    values_[1] = x(1);        // dR1/dx0
    values_[2] = 2.0 * x(1);  // dR0/dx1
    values_[3] = x(0);        // dR1/dx1
  }
  std::span<const double> matrix() const override { return values_; }
  std::string describe_row(Index row) const override { return row == 0 ? "circle" : "hyperbola"; }
  bool reads_last_evaluation() const override { return reads_last; }

  bool poison_row_1 = false;
  bool reads_last = false;
  int evaluations = 0, matrix_evaluations = 0;

 private:
  CscPattern pattern_;
  std::array<double, 4> values_{};
};

/// The circle-hyperbola system with its circle row (residual, scale and tangent) times `factor`.
class ScaledCircleHyperbola final : public NewtonSystem {
 public:
  explicit ScaledCircleHyperbola(double factor) : factor_(factor) {}
  const CscPattern& pattern() const override { return inner_.pattern(); }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool with_matrix) override {
    inner_.evaluate(x, residual, scale, floor, with_matrix);
    residual(0) *= factor_;
    scale(0) *= factor_;
    const std::span<const double> inner = inner_.matrix();
    values_ = {factor_ * inner[0], inner[1], factor_ * inner[2], inner[3]};  // rows 0, 1, 0, 1
  }
  std::span<const double> matrix() const override { return values_; }
  std::string describe_row(Index row) const override { return inner_.describe_row(row); }

 private:
  CircleHyperbola inner_;
  double factor_;
  std::array<double, 4> values_{};
};

/// x0 > x1 > 0 root of the circle-hyperbola system: x0^2 = 2 + sqrt(3), x1 = 1/x0.
Vector circle_hyperbola_root() {
  const double x0 = std::sqrt(2.0 + std::sqrt(3.0));
  return Vector(Eigen::Vector2d(x0, 1.0 / x0));
}

/// The largest r_{k+1} / r_k^2 over the consecutive iterates whose r_{k+1} is above 1e-11 (below
/// that the residual sits near its round-off floor of ~1e-14, and the ratio means nothing) and
/// came from the kind of update asked for: from a tangent factorized at iterate k (full Newton
/// steps), or from one factorized earlier (chord steps, which contract linearly by design).
struct QuadraticRatio {
  double worst = 0.0;
  int pairs = 0;  ///< the iterate pairs measured

  void add(const std::vector<NewtonIterate>& history, bool chord_steps) {
    for (std::size_t k = 0; k + 1 < history.size(); ++k) {
      const double r = history[k].residual_norm, r_next = history[k + 1].residual_norm;
      if (r_next <= 1e-11 || history[k + 1].chord != chord_steps) continue;
      worst = std::max(worst, r_next / (r * r));
      ++pairs;
    }
  }
};

struct LivensRun {
  State final_state;
  QuadraticRatio ratio;  ///< of the full Newton steps; of the chord steps with modified Newton
  int factorizations = 0, iterations = 0;
};

LivensRun run_livens(const std::string& scenario_name, double h, int steps, bool modified,
                     const ParameterValues& parameters = {}) {
  const Scenario& scenario = find_scenario(scenario_name);
  const Model model = scenario.build(resolve_parameters(scenario, parameters));
  StepperOptions options;
  options.newton.residual_tolerance = 1e-12;
  options.newton.increment_tolerance = 1e-12;
  options.newton.modified = modified;
  LivensEnergyMomentum stepper(*model.system, options);
  LivensRun run;
  run.final_state = model.initial;
  stepper.initialize(run.final_state);
  for (int n = 0; n < steps; ++n) {
    const NewtonReport report = stepper.step(run.final_state, h);
    run.ratio.add(report.history, modified);
    run.factorizations += report.factorizations;
    run.iterations += report.iterations;
  }
  return run;
}

/// One unknown whose residual at each new iterate is the next of a script (at an iterate evaluated
/// again, the same), with scale 1 and tangent 1: Newton's decisions on a history chosen exactly.
class ScriptedResidual final : public NewtonSystem {
 public:
  explicit ScriptedResidual(std::vector<double> script) : script_(std::move(script)) {
    pattern_.n = 1;
    pattern_.column_starts = {0, 1};
    pattern_.row_indices = {0};
  }
  const CscPattern& pattern() const override { return pattern_; }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool with_matrix) override {
    if (!last_x_ || x(0) != *last_x_) ++next_;
    last_x_ = x(0);
    residual(0) = script_.at(next_ - 1);
    scale(0) = 1.0;
    floor(0) = 0.0;
    matrix_evaluations += with_matrix;
  }
  std::span<const double> matrix() const override { return one_; }
  std::string describe_row(Index) const override { return "scripted"; }

  int matrix_evaluations = 0;

 private:
  CscPattern pattern_;
  std::vector<double> script_;
  std::size_t next_ = 0;
  std::optional<double> last_x_;
  std::array<double, 1> one_{1.0};
};

}  // namespace

TEST_CASE("Newton alone: the circle-hyperbola system converges quadratically") {
  CircleHyperbola system;
  NewtonSolver solver(system.pattern(), LinearSolverKind::umfpack, {});
  Vector x = Vector(Eigen::Vector2d(2.0, 0.3));
  const NewtonReport report = solver.solve(system, x, "test solve");
  CHECK((x - circle_hyperbola_root()).cwiseAbs().maxCoeff() <= 1e-14);
  // A chord step from iterate k exactly where the last contraction rate = r_k / r_{k-1} <= 1/4
  // predicts the tolerance within two chord steps, r_k rate^2 <= tolerance, or r_k meets it
  // already; a factorization at every other iterate (NewtonOptions).
  const double tolerance = NewtonOptions{}.residual_tolerance;
  int factorized = 0;
  for (std::size_t k = 0; k + 1 < report.history.size(); ++k) {
    const double r = report.history[k].scaled_residual;
    const double rate = k == 0 ? 1.0 : r / report.history[k - 1].scaled_residual;
    const bool chord = (rate <= NewtonOptions{}.refresh_contraction && r * rate * rate <= tolerance) || r <= tolerance;
    CHECK(report.history[k + 1].chord == chord);
    factorized += !chord;
  }
  CHECK(report.factorizations == factorized);
  CHECK(report.factorizations < report.iterations);
  CHECK(!report.history.front().chord);
  // Each matrix evaluated was factorized: the evaluations after a chord step compute the residual
  // alone, and at the first chord step's start, reached by a fresh factorization, the quadratic
  // constant of the update before it (C = r_k / r_{k-1}^2) predicted the chord step, so that its
  // matrix was not evaluated either. No prediction failed: one evaluation per iterate.
  CHECK(system.evaluations == report.iterations + 1);
  CHECK(system.matrix_evaluations == report.factorizations);
  // The report counts what the system saw.
  CHECK(report.evaluations == system.evaluations);
  CHECK(report.matrix_evaluations == system.matrix_evaluations);
  CHECK(report.history.size() == static_cast<std::size_t>(report.iterations) + 1);
  CHECK(report.history.front().increment_norm == 0.0);
  CHECK(report.history.back().residual_norm <= 1e-10);
  CHECK(report.iterations <= 6);
  QuadraticRatio ratio;
  ratio.add(report.history, false);
  MESSAGE("worst r_{k+1}/r_k^2 = ", ratio.worst, " over ", ratio.pairs, " full Newton steps");
  CHECK(ratio.pairs >= 2);
  CHECK(ratio.worst <= 1.0);  // C = |J^-1| |R''| / 2 ~ 0.4 here

  // Already at the root: no iteration, no factorization.
  const NewtonReport again = solver.solve(system, x, "test solve");
  CHECK(again.iterations == 0);
  CHECK(again.factorizations == 0);
  CHECK(again.evaluations == 1);  // the start, evaluated with its matrix (full Newton) and accepted
  CHECK(again.matrix_evaluations == 1);
}

TEST_CASE("Newton alone: an update from an iterate within tolerance goes unevaluated where it meets the increment test") {
  // From this start the residual meets the tolerance one update before the increment does
  // (found by trying starts; the CHECKs below fail should it stop doing so).
  const Vector start = Vector(Eigen::Vector2d(1.5, 0.7));
  CircleHyperbola unread, read;
  read.reads_last = true;
  NewtonSolver solver_unread(unread.pattern(), LinearSolverKind::umfpack, {});
  NewtonSolver solver_read(read.pattern(), LinearSolverKind::umfpack, {});
  Vector x_unread = start, x_read = start;
  const NewtonReport a = solver_unread.solve(unread, x_unread, "test solve");
  const NewtonReport b = solver_read.solve(read, x_read, "test solve");
  CHECK(a.last_update_unevaluated);
  CHECK(!b.last_update_unevaluated);
  // The same updates and the same solution, bit for bit; one evaluation fewer.
  CHECK((x_unread.array() == x_read.array()).all());
  CHECK(a.iterations == b.iterations);
  CHECK(a.factorizations == b.factorizations);
  CHECK(unread.evaluations == read.evaluations - 1);
  CHECK(a.evaluations == unread.evaluations);
  CHECK(b.evaluations == read.evaluations);
  CHECK(a.matrix_evaluations == unread.matrix_evaluations);
  CHECK(b.matrix_evaluations == read.matrix_evaluations);
  CHECK(a.history.size() == static_cast<std::size_t>(a.iterations));
  CHECK(b.history.size() == static_cast<std::size_t>(b.iterations) + 1);
  // The evaluation the first solve left out confirms: within the tolerance, and below the
  // residual of the iterate the update started from.
  const double tolerance = NewtonOptions{}.residual_tolerance;
  REQUIRE(b.history.size() >= 2);
  const NewtonIterate& before = b.history[b.history.size() - 2];
  const NewtonIterate& confirmed = b.history.back();
  MESSAGE("r before the unevaluated update ", before.scaled_residual, ", after it ", confirmed.scaled_residual,
          "; its max|dx| ", confirmed.increment_norm);
  CHECK(before.scaled_residual <= tolerance);
  CHECK(confirmed.scaled_residual <= before.scaled_residual);
  CHECK(confirmed.increment_norm <= NewtonOptions{}.increment_tolerance * (1.0 + x_read.cwiseAbs().maxCoeff()));
  CHECK((x_unread - circle_hyperbola_root()).cwiseAbs().maxCoeff() <= 1e-14);
}

TEST_CASE("Newton alone: without accept_initial_iterate a start within the tolerance is updated once, with its own tangent") {
  // A start 5e-14 off the root meets the tolerance (r ~ 1e-14); accepted, its error stays. Updated
  // once with the tangent at it, the error is quadratic in 5e-14: rounding's (NewtonOptions).
  const Vector start = circle_hyperbola_root() + Vector(Eigen::Vector2d(5e-14, -5e-14));
  for (const bool modified : {false, true}) {
    CAPTURE(modified);
    CircleHyperbola system;
    NewtonOptions options;
    options.modified = modified;
    NewtonSolver accepting(system.pattern(), LinearSolverKind::klu, options);
    options.accept_initial_iterate = false;
    NewtonSolver updating(system.pattern(), LinearSolverKind::klu, options);
    // Modified Newton keeps a factorization from an earlier solve, at another point: it must not
    // be the one the start is updated with.
    Vector far = Vector(Eigen::Vector2d(2.0, 0.3));
    updating.solve(system, far, "earlier solve");
    Vector accepted = start, updated = start;
    const NewtonReport a = accepting.solve(system, accepted, "accepting");
    const NewtonReport b = updating.solve(system, updated, "updating");
    REQUIRE(a.history.front().scaled_residual <= options.residual_tolerance);
    CHECK(a.iterations == 0);
    CHECK((accepted.array() == start.array()).all());
    CHECK(b.iterations == 1);
    CHECK(b.factorizations == 1);
    CHECK(b.last_update_unevaluated);  // its increment met the increment test
    const double error = (updated - circle_hyperbola_root()).cwiseAbs().maxCoeff();
    MESSAGE("start off by 5e-14; after the update ", error);
    CHECK(error <= 1e-15);
  }
}

TEST_CASE("Newton alone: modified Newton reaches the same root with fewer factorizations, also across solves") {
  CircleHyperbola system;
  NewtonOptions options;
  options.modified = true;
  options.residual_tolerance = 1e-13;
  options.increment_tolerance = 1e-13;
  NewtonSolver solver(system.pattern(), LinearSolverKind::klu, options);
  Vector x = Vector(Eigen::Vector2d(2.0, 0.3));
  const NewtonReport first = solver.solve(system, x, "first");
  CHECK((x - circle_hyperbola_root()).cwiseAbs().maxCoeff() <= 1e-13);
  CHECK(first.factorizations < first.iterations);
  CHECK(first.evaluations == system.evaluations);
  CHECK(first.matrix_evaluations == system.matrix_evaluations);
  const int evaluations_before = system.evaluations, matrix_evaluations_before = system.matrix_evaluations;
  // A nearby start reuses the factorization kept from the first solve.
  x += Vector(Eigen::Vector2d(1e-3, -1e-3));
  const NewtonReport second = solver.solve(system, x, "second");
  CHECK((x - circle_hyperbola_root()).cwiseAbs().maxCoeff() <= 1e-13);
  CHECK(second.factorizations == 0);
  CHECK(second.iterations >= 2);
  // Residuals alone: no matrix is evaluated where none is factorized.
  CHECK(second.evaluations == system.evaluations - evaluations_before);
  CHECK(second.evaluations == second.iterations + (second.last_update_unevaluated ? 0 : 1));
  CHECK(second.matrix_evaluations == 0);
  CHECK(system.matrix_evaluations == matrix_evaluations_before);
}

TEST_CASE("Newton alone: an update that ends at the rounding floor does not make the next solve evaluate an unused matrix") {
  // Solve 1: a refactorization at r = 1e-12 (its chord step contracted by 1/3 only) ends at
  // 1e-16, whose ratio r_{k+1} / r_k^2 = 1e8 is no quadratic constant; the update before it
  // measured C = 3e-12 / 1e-10 = 0.03. Solve 2 then starts as solve 1 did: with C = 0.03 its first
  // update is predicted to end in chord steps (3e-12, rate 3e-7), as it does, and its matrix is
  // not evaluated; with C = 1e8 it would be (NewtonOptions).
  ScriptedResidual system({1e-5, 3e-12, 1e-12, 1e-16, 1e-5, 3e-12, 1e-17});
  NewtonSolver solver(system.pattern(), LinearSolverKind::klu, {});
  Vector x = Vector::Zero(1);
  const NewtonReport first = solver.solve(system, x, "floor");
  REQUIRE(first.history.size() == 4);
  CHECK(first.factorizations == 2);
  CHECK(first.history[2].chord);
  CHECK_FALSE(first.history[3].chord);
  x(0) = 1.0;  // a new iterate: the script's next residual
  const int before = system.matrix_evaluations;
  const NewtonReport second = solver.solve(system, x, "next");
  REQUIRE(second.history.size() == 3);
  CHECK(second.factorizations == 1);
  CHECK(second.matrix_evaluations == 1);
  CHECK(system.matrix_evaluations - before == 1);
}

TEST_CASE("Newton alone: the stopping test does not depend on the units of a row") {
  // The same system with its circle row, and its scale, multiplied by 1e-9, 1 and 1e6: a row's
  // tolerance is relative to its scale, so the iterates and their number are the same.
  const auto solve_scaled = [](double factor) {
    ScaledCircleHyperbola system(factor);
    NewtonSolver solver(system.pattern(), LinearSolverKind::umfpack, {});
    Vector x = Vector(Eigen::Vector2d(2.0, 0.3));
    const NewtonReport report = solver.solve(system, x, "scaled");
    return std::pair{x, report};
  };
  const auto [x1, report1] = solve_scaled(1.0);
  CHECK((x1 - circle_hyperbola_root()).cwiseAbs().maxCoeff() <= 1e-13);
  for (double factor : {1e-9, 1e6}) {
    CAPTURE(factor);
    const auto [x, report] = solve_scaled(factor);
    CHECK(report.iterations == report1.iterations);
    CHECK((x - x1).cwiseAbs().maxCoeff() <= 1e-14);
    for (std::size_t k = 0; k < report.history.size(); ++k)  // above the rounding floor
      if (report1.history[k].scaled_residual > 1e-12)
        CHECK(report.history[k].scaled_residual == doctest::Approx(report1.history[k].scaled_residual).epsilon(1e-6));
  }
}

TEST_CASE("Newton alone: singular tangent, no convergence and a NaN residual are NewtonErrors with context") {
  CircleHyperbola system;
  NewtonSolver solver(system.pattern(), LinearSolverKind::umfpack, {});

  Vector origin = Vector::Zero(2);  // J = 0 there; R = (-4, -1)
  try {
    solver.solve(system, origin, "step 7 (t = 0.06 -> 0.07)");
    FAIL("no NewtonError at a singular tangent");
  } catch (const NewtonError& e) {
    CHECK(e.context() == "step 7 (t = 0.06 -> 0.07)");
    CHECK(e.reason().find("could not be factorized (umfpack: the matrix is singular)") != std::string::npos);
    CHECK(e.worst_row() == "circle");
    CHECK(e.worst_value() == -4.0);
    CHECK(std::string(e.what()) ==
          "Newton failed at step 7 (t = 0.06 -> 0.07): the Newton matrix could not be factorized (umfpack: the "
          "matrix is singular); scaled residual (max|dx|) history: 1.000e+00 (0.000e+00); largest scaled residual "
          "entry -4.000e+00 (scale 4.000e+00) in circle");
  }

  NewtonOptions two;
  two.max_iterations = 2;
  NewtonSolver limited(system.pattern(), LinearSolverKind::umfpack, two);
  Vector far = Vector(Eigen::Vector2d(10.0, 0.1));
  CHECK_THROWS_WITH_AS(limited.solve(system, far, "far"), doctest::Contains("far: no convergence in 2 iterations"),
                       NewtonError);
  try {
    limited.solve(system, far, "far");
  } catch (const NewtonError& e) {
    CHECK(e.history().size() == 3);
  }

  // The circle row is exactly 0 at the root, the hyperbola row NaN: a NaN must never pass as converged.
  Vector root = circle_hyperbola_root();
  system.poison_row_1 = true;
  CHECK_THROWS_WITH_AS(solver.solve(system, root, "nan"),
                       doctest::Contains("the residual is not finite; scaled residual (max|dx|) history: nan (0.000e+00); largest "
                                        "scaled residual entry nan (scale 2.000e+00) in hyperbola"),
                       NewtonError);
}

TEST_CASE("Newton alone: a solve that stalls within 100 times the tolerance returns its best iterate, flagged") {
  // Noise of 1e-12 (r between 1e-12 and 3e-12): never the tolerance 1e-13, within 100 times it.
  for (const bool reads_last : {false, true}) {
    CAPTURE(reads_last);
    NoisyLine system(1e-12, 1.0);
    system.reads_last = reads_last;
    NewtonSolver solver(system.pattern(), LinearSolverKind::klu, {});
    Vector x = Vector::Zero(1);
    const NewtonReport report = solver.solve(system, x, "stall");
    REQUIRE(report.iterations == 30);
    double best = std::numeric_limits<double>::infinity();
    for (const NewtonIterate& iterate : report.history) best = std::min(best, iterate.scaled_residual);
    CHECK(report.stalled_residual == best);
    CHECK(report.stalled_residual > 1e-13);
    CHECK(report.stalled_residual <= 1e-11);
    CHECK(std::abs(x(0) - 1.0) <= 3e-12);
    // A system that reads its last evaluation is evaluated again at the iterate returned.
    CHECK((system.last_x == x(0)) == reads_last);
  }
}

TEST_CASE("Newton alone: a stalled solve returns its best iterate of all, also where its second half lies higher") {
  // As near a singular configuration, where the multipliers along the lost rank wander: noise of
  // 4e-13 (r between 2e-13 and 6e-13) for the first four evaluations, of 4e-12 after them. The
  // best iterate of the second half (r >= 2e-12) is ten times worse than the early ones.
  NoisyLine system(4e-13, 1.0);
  system.louder_from = 4;
  system.louder = 4e-12;
  NewtonSolver solver(system.pattern(), LinearSolverKind::klu, {});
  Vector x = Vector::Zero(1);
  const NewtonReport report = solver.solve(system, x, "stall");
  REQUIRE(report.iterations == 30);
  double best = std::numeric_limits<double>::infinity(), best_of_second_half = best;
  for (std::size_t k = 0; k < report.history.size(); ++k) {
    best = std::min(best, report.history[k].scaled_residual);
    if (k >= 15) best_of_second_half = std::min(best_of_second_half, report.history[k].scaled_residual);
  }
  CHECK(best_of_second_half > 3.0 * best);
  CHECK(report.stalled_residual == best);
  CHECK(std::abs(x(0) - 1.0) <= 1e-12);
}

TEST_CASE("Newton alone: a solve that stalls above 100 times the tolerance, or still converges at its limit, fails") {
  NoisyLine noisy(1e-10, 1.0);  // r between 1e-10 and 3e-10
  NewtonSolver solver(noisy.pattern(), LinearSolverKind::klu, {});
  Vector x = Vector::Zero(1);
  CHECK_THROWS_WITH_AS(solver.solve(noisy, x, "noisy"), doctest::Contains("no convergence in 30 iterations"), NewtonError);

  // Updates of 0.6 Newton steps: r = 0.4^k falls to 1.2e-12 at the limit, within 100 times the
  // tolerance but 2.4e6 times below the first half's best: not stalled.
  NoisyLine slow(0.0, 0.6);
  NewtonSolver slow_solver(slow.pattern(), LinearSolverKind::klu, {});
  x = Vector::Zero(1);
  try {
    slow_solver.solve(slow, x, "slow");
    FAIL("a solve still converging at its iteration limit passed");
  } catch (const NewtonError& e) {
    CHECK(e.reason() == "no convergence in 30 iterations");
    CHECK(e.history().back().scaled_residual <= 1e-11);
  }
}

TEST_CASE("Newton alone: an iterate within the tolerance at the iteration limit is returned, so one iteration can succeed") {
  // `--newton-max-iterations 1` never succeeded: "no convergence in 1 iterations" with the history
  // at 1.5e-30, since the increment test that confirms an iterate needs one more iteration.
  NoisyLine line(0.0, 1.0);  // linear: the first Newton update is the root
  NewtonOptions one;
  one.max_iterations = 1;
  NewtonSolver solver(line.pattern(), LinearSolverKind::klu, one);
  Vector x = Vector::Zero(1);
  const NewtonReport report = solver.solve(line, x, "one iteration");
  CHECK(report.iterations == 1);
  CHECK(x(0) == 1.0);
  CHECK(report.history.back().scaled_residual == 0.0);
  CHECK(report.stalled_residual == 0.0);  // converged, not stalled
  // An iterate outside the tolerance at the limit still fails: updates of 0.6 Newton steps.
  NoisyLine slow(0.0, 0.6);
  NewtonSolver slow_solver(slow.pattern(), LinearSolverKind::klu, one);
  x = Vector::Zero(1);
  CHECK_THROWS_WITH_AS(slow_solver.solve(slow, x, "slow"), doctest::Contains("no convergence in 1 iterations"), NewtonError);
}

TEST_CASE("Newton options that cannot work are refused, naming the option and the value") {
  CircleHyperbola system;
  const auto refuses = [&](NewtonOptions options, const std::string& message) {
    CAPTURE(message);
    CHECK_THROWS_WITH_AS(NewtonSolver(system.pattern(), LinearSolverKind::klu, options), message.c_str(),
                         std::invalid_argument);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  NewtonOptions options;
  options.residual_tolerance = 0.0;
  refuses(options, "Newton option residual_tolerance must be a finite number > 0 (e.g. 1e-13), got 0");
  options.residual_tolerance = nan;
  refuses(options, "Newton option residual_tolerance must be a finite number > 0 (e.g. 1e-13), got nan");
  options = {};
  options.increment_tolerance = -1e-10;
  refuses(options, "Newton option increment_tolerance must be a finite number > 0 (e.g. 1e-10), got -1e-10");
  options = {};
  options.max_iterations = 0;
  refuses(options, "Newton option max_iterations must be at least 1, got 0");
  options = {};
  options.refresh_contraction = 1.0;
  refuses(options, "Newton option refresh_contraction must lie strictly between 0 and 1 (e.g. 0.25), got 1");
  options.refresh_contraction = 1.0000001;  // every digit: six would show the refused value as "1"
  refuses(options, "Newton option refresh_contraction must lie strictly between 0 and 1 (e.g. 0.25), got 1.0000001");

  NewtonOptions tiny;  // small but positive: allowed, the caller may want to see the rounding floor
  tiny.residual_tolerance = 1e-300;
  CHECK_NOTHROW(NewtonSolver(system.pattern(), LinearSolverKind::klu, tiny));
}

TEST_CASE("livens-em Newton converges quadratically on the seed scenarios (exact tangents)") {
  // For exact tangents r_{k+1} <= C r_k^2 with a fixed C; here C ~ 2/h on the double pendulum
  // (the multiplier block of the inverse tangent scales like 1/h). An inexact tangent converges
  // linearly, r_{k+1} ~ delta r_k, and r_{k+1}/r_k^2 ~ delta/r_k blows up as r_k falls: the
  // modified-Newton control below shows ratios of 1e6 to 1e9.
  for (const std::string scenario : {"spring-pendulum", "singular-mass-spring", "double-pendulum"}) {
    CAPTURE(scenario);
    const LivensRun exact = run_livens(scenario, 0.1, 20, false);
    const LivensRun stale = run_livens(scenario, 0.1, 20, true);
    MESSAGE(scenario, ": worst r_{k+1}/r_k^2 ", exact.ratio.worst, " over ", exact.ratio.pairs,
            " full Newton steps, ", stale.ratio.worst, " over ", stale.ratio.pairs, " modified Newton steps");
    CHECK(exact.ratio.pairs >= 20);
    CHECK(exact.ratio.worst <= 1e3);
    CHECK(stale.ratio.worst > 1e3);
  }
}

TEST_CASE("livens-em Newton converges quadratically on director-body mechanisms (tangents from sparse constant data)") {
  // Constant masses and constraints of degree <= 2 (orthonormality, spherical, revolute joints)
  // are evaluated from the stepper's sparse copy of their constant data; a wrong entry in any of
  // their blocks would make Newton converge linearly (ratios of 1e6 and more, see above).
  struct Case {
    std::string scenario;
    ParameterValues parameters;
  };
  const std::vector<Case> cases{{"chain3d", {{"n", 4}, {"joint", 0}}},
                                {"chain3d", {{"n", 4}, {"joint", 1}}},
                                {"chain2d", {{"n", 4}}},
                                {"nfourbar", {{"n", 2}}}};
  for (const Case& c : cases) {
    CAPTURE(c.scenario);
    CAPTURE(c.parameters.begin()->second);
    const LivensRun run = run_livens(c.scenario, 0.05, 10, false, c.parameters);
    MESSAGE(c.scenario, ": worst r_{k+1}/r_k^2 ", run.ratio.worst, " over ", run.ratio.pairs, " full Newton steps of ",
            run.iterations, " iterations");
    CHECK(run.ratio.pairs >= 10);
    CHECK(run.ratio.worst <= 1e3);
  }
}

TEST_CASE("Newton stays quadratic when the time step changes (constant mass blocks depend on h and are rewritten)") {
  // The matrix keeps its constant entries between evaluations; a stale M/h after a change of h
  // would make Newton converge linearly (ratios of 1e6 and more, see above).
  const Scenario& scenario = find_scenario("chain2d");
  const Model model = scenario.build(resolve_parameters(scenario, {{"n", 4}}));
  StepperOptions options;
  options.newton.residual_tolerance = 1e-12;
  options.newton.increment_tolerance = 1e-12;
  for (const std::string name : {"livens-em", "em-ggl", "ggl-vi"}) {
    CAPTURE(name);
    const std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model.system, options);
    State state = model.initial;
    stepper->initialize(state);
    QuadraticRatio ratio;
    for (const double h : {0.01, 0.005, 0.005, 0.02, 0.01}) ratio.add(stepper->step(state, h).history, false);
    MESSAGE(name, " on chain2d with h changing: worst r_{k+1}/r_k^2 ", ratio.worst, " over ", ratio.pairs,
            " full Newton steps");
    CHECK(ratio.pairs >= 5);
    CHECK(ratio.worst <= 1e3);
  }
}

TEST_CASE("modified Newton reproduces the livens-em run with fewer factorizations") {
  for (const std::string scenario : {"spring-pendulum", "singular-mass-spring", "double-pendulum"}) {
    CAPTURE(scenario);
    const LivensRun full = run_livens(scenario, 0.1, 20, false);
    const LivensRun modified = run_livens(scenario, 0.1, 20, true);
    MESSAGE(scenario, ": factorizations ", full.factorizations, " -> ", modified.factorizations, ", iterations ",
            full.iterations, " -> ", modified.iterations);
    // Full Newton takes chord steps as well (NewtonOptions); on the double pendulum 58 -> 21.
    CHECK(2 * modified.factorizations <= full.factorizations);
    // Both stop at the Newton tolerance; 20 steps of the scheme's error propagation keep them within 1e-10.
    CHECK((modified.final_state.q - full.final_state.q).cwiseAbs().maxCoeff() <= 1e-10);
    CHECK((modified.final_state.v - full.final_state.v).cwiseAbs().maxCoeff() <= 1e-9);
  }
}

TEST_CASE("a livens-em step that fails names the step, the residual history and the element") {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  StepperOptions options;
  options.newton.max_iterations = 1;
  options.newton.residual_tolerance = 1e-14;
  options.max_refinement_depth = 0;  // Newton's own failure (a refined one: test_step_refinement.cpp)
  LivensEnergyMomentum stepper(*model.system, options);
  State state = model.initial;
  stepper.initialize(state);
  const State before = state;
  try {
    stepper.step(state, 0.01);
    FAIL("one Newton iteration cannot reach 1e-14");
  } catch (const NewtonError& e) {
    const std::string what = e.what();
    MESSAGE(what);
    CHECK(what.find("Newton failed at step 1 (t = 0 -> 0.01): no convergence in 1 iterations; scaled residual (max|dx|) history: ") == 0);
    CHECK(e.history().size() == 2);
    CHECK(e.worst_row().find("; largest contribution from ") != std::string::npos);
    bool names_an_element = false;
    for (const char* element : {"inertia 'inertia1'", "inertia 'inertia2'", "potential 'gravity1'", "potential 'gravity2'",
                                "constraint 'rod1'", "constraint 'rod2'"})
      names_an_element = names_an_element || e.worst_row().find(element) != std::string::npos;
    CHECK(names_an_element);
  }
  CHECK(state.step == before.step);  // the state is left unchanged
  CHECK(state.q == before.q);
  CHECK(state.v == before.v);
  CHECK(state.p == before.p);
}

TEST_CASE("a constraint that contradicts another: initialize refuses the state, the projection names the cause") {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  // |mass1| = 2 contradicts rod1's |mass1| = 1.
  ConstraintFunction too_long;
  too_long.nonlinearity = Nonlinearity::quadratic;
  too_long.value = [](ConstVectorRef q) { return Vector::Constant(1, 0.5 * (q.squaredNorm() - 4.0)); };
  too_long.jacobian = [](ConstVectorRef q) { return Matrix(q.transpose()); };
  too_long.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) { return Matrix(lambda(0) * Matrix::Identity(2, 2)); };
  model.system->add(std::make_shared<FunctionConstraint>("rod1 too long", std::vector{model.system->find_block("mass1")},
                                                         2, too_long));
  LivensEnergyMomentum stepper(*model.system, {});
  State state = model.initial;
  // Once the steppers stepped from such a state and Newton failed in step 1; now no stepper starts
  // off the constraints (solvers/initial_values.hpp).
  CHECK_THROWS_WITH_AS(stepper.initialize(state),
                       doctest::Contains("livens-em: the initial positions are off the constraints: constraint 'rod1 too "
                                         "long' row 0 has |g| = 1.5"),
                       InconsistentInitialValues);
  // Both constraints act along mass1's radius: G G^T is singular, and the projection says where.
  CHECK_THROWS_WITH_AS(project_initial_state(*model.system, state), doctest::Contains("constraint 'rod1"),
                       ProjectionError);
}

TEST_CASE("an element that barely moves under a non-zero force keeps an accurate discrete gradient") {
  // A bead in the well V1(x) = 3 - cos(x + 1/2) (Gonzalez: general nonlinearity), held at x* = 0
  // by the linear V2(x) = -sin(1/2) x and creeping with v0 = 1e-10: q1 - q0 ~ 1e-12 while
  // DV1 = sin(1/2). The Gonzalez correction formed at such |w| would be rounding noise,
  // ~eps V1 / |w| = 4e-4 in the force, and Newton would not converge (engine/gonzalez.hpp
  // drops the correction below |w| ~ 1e-6).
  System system;
  const BlockId b = system.add_block("bead", {"x"});
  system.add(std::make_shared<ConstantInertia>("bead inertia", std::vector{b}, Matrix::Identity(1, 1)));
  PotentialFunction well;
  well.energy = [](ConstVectorRef q) { return 3.0 - std::cos(q(0) + 0.5); };
  well.gradient = [](ConstVectorRef q) { return Vector::Constant(1, std::sin(q(0) + 0.5)); };
  well.hessian = [](ConstVectorRef q) { return Matrix::Constant(1, 1, std::cos(q(0) + 0.5)); };
  system.add(std::make_shared<FunctionPotential>("well", std::vector{b}, 1, well));
  PotentialFunction hold;
  hold.nonlinearity = Nonlinearity::linear;
  hold.energy = [](ConstVectorRef q) { return -std::sin(0.5) * q(0); };
  hold.gradient = [](ConstVectorRef) { return Vector::Constant(1, -std::sin(0.5)); };
  hold.hessian = [](ConstVectorRef) { return Matrix::Zero(1, 1); };
  system.add(std::make_shared<FunctionPotential>("hold", std::vector{b}, 1, hold));
  StepperOptions options;
  // The force h (sin(x + 1/2) - sin(1/2)) ~ 1e-14 per step is resolved only by a tolerance far
  // below it; its rounding, h * eps * sin(1/2) ~ 1e-18, allows 1e-17.
  options.newton.residual_tolerance = 1e-17;
  LivensEnergyMomentum stepper(system, options);
  State state;
  state.q = Vector::Zero(1);
  state.v = Vector::Constant(1, 1e-10);
  stepper.initialize(state);
  const double h = 0.01, omega = std::sqrt(std::cos(0.5));
  for (int n = 0; n < 10; ++n) {
    const NewtonReport report = stepper.step(state, h);
    CHECK(report.iterations <= 3);
  }
  // Harmonic about x*: v = v0 cos(omega t) at t = 0.1, a change of 4.4e-13 from v0.
  MESSAGE("v error ", state.v(0) - 1e-10 * std::cos(omega * 0.1));
  CHECK(std::abs(state.v(0) - 1e-10 * std::cos(omega * 0.1)) <= 1e-15);
}
