/// KluSolver's choice of ordering by trial factorization (solvers/linear/klu_solver.hpp): the
/// candidate of fewest flops wins, its factors are the ones solved with, and a solver that forgot
/// its factorization chooses again from the next matrix alone, as a new solver does.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;

/// Forwards to a KluSolver and keeps the pattern and the values of the last factorize.
class RecordingKlu final : public LinearSolver {
 public:
  LinearSolverKind kind() const override { return klu.kind(); }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& p) override {
    pattern = p;
    klu.analyze_pattern(p);
  }
  FactorizationStatus factorize(std::span<const double> v) override {
    values.assign(v.begin(), v.end());
    return klu.factorize(v);
  }
  void solve(std::span<const double> b, std::span<double> x) override { klu.solve(b, x); }
  void solve_transposed(std::span<const double> b, std::span<double> x) override { klu.solve_transposed(b, x); }
  void forget_factorization() override { klu.forget_factorization(); }

  KluSolver klu;
  CscPattern pattern;
  std::vector<double> values;
};

SparseMatrix matrix_of(const CscPattern& pattern, const std::vector<double>& values) {
  const Eigen::Map<const SparseMatrix> A(pattern.n, pattern.n, pattern.nnz(), pattern.column_starts.data(),
                                         pattern.row_indices.data(), values.data());
  return A;
}

std::span<const double> as_span(const Vector& v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
std::span<double> as_span(Vector& v) { return {v.data(), static_cast<std::size_t>(v.size())}; }

/// max_i |A x - b|_i / (|A| |x| + |b|)_i: the componentwise backward error of a solution.
double backward_error(const SparseMatrix& A, const Vector& x, const Vector& b) {
  const Vector bound = A.cwiseAbs() * x.cwiseAbs() + b.cwiseAbs();
  return ((A * x - b).cwiseAbs().array() / bound.array()).maxCoeff();
}

/// A Newton matrix as the stepper's KLU saw it, and what that KLU chose for it.
struct CapturedMatrix {
  CscPattern pattern;
  std::vector<double> values;          ///< of the last factorize
  KluSolver::OrderingRecord ordering;  ///< of the stepper's KLU
};

/// The Newton matrix of a stepper on a scenario, at the last Newton iteration of its first step
/// (h = 1/250).
CapturedMatrix newton_matrix(const std::string& scenario_name, const ParameterValues& overrides,
                             const std::string& stepper_name) {
  const Scenario& scenario = find_scenario(scenario_name);
  const Model model = scenario.build(resolve_parameters(scenario, overrides));
  RecordingKlu* made = nullptr;
  StepperOptions options;
  options.newton.linear_solver_factory = [&]() -> std::unique_ptr<LinearSolver> {
    auto solver = std::make_unique<RecordingKlu>();
    made = solver.get();
    return solver;
  };
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  stepper->step(state, 1.0 / 250);
  REQUIRE(made != nullptr);
  return {made->pattern, made->values, made->klu.ordering()};
}

/// em-ggl's Newton matrix on a planar chain of n bodies.
CapturedMatrix em_ggl_chain_matrix(int n) { return newton_matrix("chain2d", {{"n", n}}, "em-ggl"); }

}  // namespace

TEST_CASE("KLU keeps the ordering whose trial factorization takes the fewest flops: AMD on em-ggl's chain") {
  const CapturedMatrix m = em_ggl_chain_matrix(20);
  // The stepper's KLU chose at its first factorization, from the step's first Newton matrix.
  CHECK(m.ordering.method == "amd");

  KluSolver klu;
  klu.analyze_pattern(m.pattern);
  CHECK(klu.candidate_methods() == std::vector<std::string>{"colamd"});  // AMD is analysed for the trial
  CHECK(klu.ordering().method.empty());  // chosen at the first factorization
  REQUIRE(klu.factorize(m.values).ok);
  CHECK(klu.candidate_methods() == std::vector<std::string>{"colamd", "amd"});
  const KluSolver::OrderingRecord& record = klu.ordering();
  MESSAGE(record.method, ": ", record.reason);
  REQUIRE(record.trials.size() == 2);
  const KluSolver::OrderingTrial &colamd = record.trials[0], &amd = record.trials[1];
  CHECK(colamd.method == "colamd");
  CHECK(amd.method == "amd");
  CHECK(colamd.factorized);
  CHECK(amd.factorized);
  MESSAGE("L + U: colamd ", colamd.factor_entries, ", amd ", amd.factor_entries);
  CHECK(amd.flops < colamd.flops);  // measured: 25 053 against 27 911
  CHECK(amd.factor_entries < colamd.factor_entries);
  CHECK(record.method == "amd");
  CHECK(record.reason.find("amd") != std::string::npos);
  CHECK(klu.factor_entries() == amd.factor_entries);  // the factors kept are the winner's

  // Solutions with the winner's factors, and with a refactorization on its pivots.
  const Vector x_true = testing::random_vector(m.pattern.n, 7, 1.0);
  for (const unsigned round : {0u, 1u}) {
    CAPTURE(round);
    std::vector<double> values = m.values;
    if (round == 1) {
      for (std::size_t k = 0; k < values.size(); ++k) values[k] *= 1.0 + 1e-3 * std::sin(static_cast<double>(k));
      REQUIRE(klu.factorize(values).ok);
      CHECK(klu.refactorizations() == 1);
    }
    const SparseMatrix A = matrix_of(m.pattern, values);
    const Vector b = A * x_true;
    Vector x(m.pattern.n);
    klu.solve(as_span(b), as_span(x));
    // Componentwise backward error, measured 1.0e-13 (round 0) and 3.8e-13 (round 1); under the
    // COLAMD order 1.9e-13 (round 0). 1e-12 is a few thousand units of round-off.
    CHECK(backward_error(A, x, b) <= 1e-12);
    const SparseMatrix At = A.transpose();
    const Vector c = At * x_true;
    klu.solve_transposed(as_span(c), as_span(x));
    CHECK(backward_error(At, x, c) <= 1e-12);  // measured 8.6e-15 and 7.5e-15
  }
}

namespace {

/// values with the entries of A's diagonal multiplied by factor.
std::vector<double> scale_diagonal(const CscPattern& pattern, std::vector<double> values, double factor) {
  for (Index j = 0; j < pattern.n; ++j)
    for (Index k = pattern.column_starts[static_cast<std::size_t>(j)];
         k < pattern.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
      if (pattern.row_indices[static_cast<std::size_t>(k)] == j) values[static_cast<std::size_t>(k)] *= factor;
  return values;
}

}  // namespace

TEST_CASE("after forget_factorization KLU chooses the ordering again, from the next matrix alone") {
  // The checkpoint contract (Stepper::checkpoint): a run that forgets its factorization at a
  // checkpoint must factor the next matrix bit for bit as a run resumed there, whose solver is new.
  // em-ggl's matrix with its diagonal shrunk 1e9-fold: KLU's threshold pivoting then leaves the
  // diagonal, and AMD's order (which counts on diagonal pivots) fills in 20 times more than COLAMD's
  // (measured: 728 930 flops against 35 412), so the choice changes with the values.
  const CapturedMatrix m = em_ggl_chain_matrix(20);
  const std::vector<double> off_diagonal = scale_diagonal(m.pattern, m.values, 1e-9);

  KluSolver fresh;
  fresh.analyze_pattern(m.pattern);
  REQUIRE(fresh.factorize(off_diagonal).ok);
  MESSAGE(fresh.ordering().method, ": ", fresh.ordering().reason);
  CHECK(fresh.ordering().method == "colamd");

  KluSolver kept, forgot;
  for (KluSolver* klu : {&kept, &forgot}) {
    klu->analyze_pattern(m.pattern);
    REQUIRE(klu->factorize(m.values).ok);
    CHECK(klu->ordering().method == "amd");
  }
  forgot.forget_factorization();
  for (KluSolver* klu : {&kept, &forgot}) REQUIRE(klu->factorize(off_diagonal).ok);
  CHECK(kept.ordering().method == "amd");  // the choice stays until the next analysis or forget
  CHECK(forgot.ordering().method == "colamd");
  // AMD was tried last, so COLAMD's factors were made again: they are the ones kept.
  REQUIRE(forgot.ordering().trials.size() == 2);
  CHECK(forgot.factor_entries() == forgot.ordering().trials[0].factor_entries);
  CHECK(forgot.factor_entries() < forgot.ordering().trials[1].factor_entries);
  REQUIRE(forgot.ordering().trials.size() == fresh.ordering().trials.size());
  for (std::size_t k = 0; k < fresh.ordering().trials.size(); ++k) {
    CHECK(forgot.ordering().trials[k].flops == fresh.ordering().trials[k].flops);
    CHECK(forgot.ordering().trials[k].factor_entries == fresh.ordering().trials[k].factor_entries);
  }
  const SparseMatrix A = matrix_of(m.pattern, off_diagonal);
  const Vector b = A * testing::random_vector(m.pattern.n, 11, 1.0);
  Vector x_fresh(m.pattern.n), x_forgot(m.pattern.n);
  fresh.solve(as_span(b), as_span(x_fresh));
  forgot.solve(as_span(b), as_span(x_forgot));
  CHECK(x_forgot == x_fresh);  // bitwise
  CHECK(backward_error(A, x_forgot, b) <= 1e-12);
}

TEST_CASE("KLU keeps the first candidate, order_columns_for_lu's, when the trial ties") {
  // An arrow matrix (dense last row and column): COLAMD and AMD both eliminate the dense column
  // last, in different orders of the others, with the same flops (measured: 117 each).
  const Index n = 40;
  CscPattern pattern{n, {0}, {}};
  std::vector<double> values;
  for (Index j = 0; j < n; ++j) {
    for (Index i = 0; i < n; ++i)
      if (i == j || i == n - 1 || j == n - 1) {
        pattern.row_indices.push_back(i);
        values.push_back(i == j ? 4.0 : -1.0);
      }
    pattern.column_starts.push_back(pattern.nnz());
  }
  KluSolver klu;
  klu.analyze_pattern(pattern);
  REQUIRE(klu.factorize(values).ok);
  REQUIRE(klu.candidate_methods() == std::vector<std::string>{"colamd", "amd"});
  MESSAGE(klu.ordering().reason);
  REQUIRE(klu.ordering().trials.size() == 2);
  CHECK(klu.ordering().trials[0].flops == klu.ordering().trials[1].flops);
  CHECK(klu.ordering().method == "colamd");
  CHECK(klu.factor_entries() == 3 * n - 2);  // no fill
}

TEST_CASE("KLU tries nested dissection, not AMD, where the first candidate's factors are dense") {
  // em-ggl on a 3D chain of revolute joints: COLAMD's factors do 35 flops per entry,
  // and AMD's, with the pivots off the diagonal, 4.9 times the flops (measured at h = 1e-3).
  const CapturedMatrix m = newton_matrix("chain3d", {{"n", 20}, {"joint", 1}}, "em-ggl");
  MESSAGE(m.ordering.reason);
  REQUIRE(m.ordering.trials.size() == 2);
  const KluSolver::OrderingTrial &first = m.ordering.trials[0], &nd = m.ordering.trials[1];
  CHECK(first.flops > 15.0 * static_cast<double>(first.factor_entries));
  CHECK(nd.method == "nd");
  REQUIRE(nd.factorized);
  // nd is kept only with more than 1.5 times fewer flops than the first candidate.
  CHECK(m.ordering.method == (1.5 * nd.flops < first.flops ? "nd" : first.method));
  CHECK(m.ordering.reason.find("amd not tried") != std::string::npos);

  KluSolver klu;  // nor analyse it
  klu.analyze_pattern(m.pattern);
  REQUIRE(klu.factorize(m.values).ok);
  CHECK(klu.candidate_methods() == std::vector<std::string>{first.method, "nd"});
}

TEST_CASE("KLU's automatic ordering takes nested dissection on a grid of loops, by its flops, and not on a chain") {
  // grid2d k = 20 (closed loops: a two-dimensional graph) under livens-em: COLAMD's factors do about
  // 60 flops per entry, nested dissection's trial measured 2.5 times fewer flops (7.8e6 against
  // 1.9e7). The chain's factors are narrow: nd is not tried there, AMD is.
  const CapturedMatrix grid = newton_matrix("grid2d", {{"k", 20}}, "livens-em");
  MESSAGE(grid.ordering.reason);
  REQUIRE(grid.ordering.trials.size() == 2);
  const KluSolver::OrderingTrial &first = grid.ordering.trials[0], &nd = grid.ordering.trials[1];
  CHECK(nd.method == "nd");
  CHECK(1.5 * nd.flops < first.flops);
  CHECK(nd.factor_entries < first.factor_entries);
  CHECK(grid.ordering.method == "nd");

  // The kept factors are nd's, and they solve as the first candidate's do.
  KluSolver klu, colamd(FillOrdering::colamd);
  for (KluSolver* solver : {&klu, &colamd}) {
    solver->analyze_pattern(grid.pattern);
    REQUIRE(solver->factorize(grid.values).ok);
  }
  CHECK(klu.factorization_profile().ordering == "nd");
  CHECK(klu.factor_entries() == nd.factor_entries);
  CHECK(klu.factorization_profile().factor_entries == nd.factor_entries);
  CHECK(klu.factorization_profile().flops == nd.flops);
  const SparseMatrix A = matrix_of(grid.pattern, grid.values);
  const Vector x_true = testing::random_vector(grid.pattern.n, 11, 1.0);
  const Vector b = A * x_true;
  Vector x_nd(grid.pattern.n), x_colamd(grid.pattern.n);
  klu.solve(as_span(b), as_span(x_nd));
  colamd.solve(as_span(b), as_span(x_colamd));
  // Componentwise backward errors, measured 9.6e-13 (nd) and 1.1e-10 (colamd); forward errors
  // 5.3e-9 and 7.9e-7 (max|x| is 1): nd's solution is the exact one's to rounding, no less than
  // colamd's is. The bounds leave a decade over the measurements.
  const double nd_error = (x_nd - x_true).cwiseAbs().maxCoeff(), colamd_error = (x_colamd - x_true).cwiseAbs().maxCoeff();
  MESSAGE("backward errors: nd ", backward_error(A, x_nd, b), ", colamd ", backward_error(A, x_colamd, b),
          "; forward errors: nd ", nd_error, ", colamd ", colamd_error);
  CHECK(backward_error(A, x_nd, b) <= 1e-11);
  CHECK(backward_error(A, x_colamd, b) <= 1e-9);
  CHECK(nd_error <= colamd_error);

  const CapturedMatrix chain = newton_matrix("chain2d", {{"n", 200}}, "livens-em");
  MESSAGE(chain.ordering.reason);
  CHECK(chain.ordering.method != "nd");
  for (const KluSolver::OrderingTrial& t : chain.ordering.trials) CHECK(t.method != "nd");
}

TEST_CASE("KLU's automatic ordering does not try nested dissection on small matrices, whatever their fronts") {
  // em-ggl on a 3D chain of 10 bars: COLAMD's factors do 17 flops per entry (wide fronts), but their
  // factorization takes 2e5 flops, below the 1e6 under which METIS's analysis costs more than it
  // saves; nd would have taken 1.8 times fewer (measured at h = 0.01).
  const CapturedMatrix m = newton_matrix("chain3d", {{"n", 10}}, "em-ggl");
  MESSAGE(m.ordering.reason);
  REQUIRE(m.ordering.trials.size() == 1);
  const KluSolver::OrderingTrial& first = m.ordering.trials.front();
  CHECK(first.flops > 15.0 * static_cast<double>(first.factor_entries));
  CHECK(first.flops < 1e6);
  CHECK(m.ordering.method == first.method);
  CHECK(m.ordering.reason.find("nd not tried: below") != std::string::npos);
}
