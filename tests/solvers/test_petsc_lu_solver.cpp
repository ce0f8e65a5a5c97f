/// What the PETSc back-end (mumps) adds to the phases every back-end has (test_linear_solvers.cpp):
/// an analysis that depends on the first matrix's values, dropped by forget_factorization; a
/// structurally singular pattern; several back-ends in one process.
#include <cstring>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include <noether/solvers/linear/make_linear_solver.hpp>
#include "support/finite_differences.hpp"
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::saddle_point_matrix;
using testing::SparseSystem;
using testing::to_csc;

std::span<const double> as_span(const Vector& x) { return {x.data(), static_cast<std::size_t>(x.size())}; }
std::span<double> as_span(Vector& x) { return {x.data(), static_cast<std::size_t>(x.size())}; }

/// Every value times 1 + 0.3 u, u uniform in [-1, 1].
std::vector<double> perturbed(const std::vector<double>& values, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> out(values);
  for (double& v : out) v *= 1.0 + 0.3 * u(generator);
  return out;
}

Vector solution(LinearSolver& solver, const Vector& b) {
  Vector x(b.size());
  solver.solve(as_span(b), as_span(x));
  return x;
}

bool same_bits(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

TEST_CASE("MUMPS: after forget_factorization a factorization gives a new solver's bits (a resumed run)") {
  // MUMPS chooses its scaling and pivot order at the analysis, from that matrix's values: a solver
  // that factored other values first reaches other bits unless forget_factorization drops the
  // analysis, as a checkpoint does (Stepper::checkpoint).
  if (!linear_solver_built(LinearSolverKind::mumps)) return;  // the test suite's build has it (scripts/setup.sh all)
  const SparseSystem s = to_csc(saddle_point_matrix(120, 36, 11));
  const Vector b = testing::random_vector(s.pattern.n, 12, 1.0);
  const std::vector<double> first = perturbed(s.values, 13), later = perturbed(s.values, 14);
  auto fresh = make_linear_solver(LinearSolverKind::mumps);
  fresh->analyze_pattern(s.pattern);
  REQUIRE(fresh->factorize(later).ok);
  const Vector expected = solution(*fresh, b);

  auto reused = make_linear_solver(LinearSolverKind::mumps);
  reused->analyze_pattern(s.pattern);
  REQUIRE(reused->factorize(first).ok);
  REQUIRE(reused->factorize(later).ok);  // on the analysis of `first`
  const Vector refactored = solution(*reused, b);
  CHECK((refactored - expected).cwiseAbs().maxCoeff() <= 1e-12);
  MESSAGE("refactored on the first matrix's analysis: bitwise equal to a fresh solver's: ", same_bits(refactored, expected));
  reused->forget_factorization();
  Vector x(s.pattern.n);
  CHECK_THROWS_AS(reused->solve(as_span(b), as_span(x)), LinearSolverError);  // no factors after it
  REQUIRE(reused->factorize(later).ok);
  CHECK(same_bits(solution(*reused, b), expected));
}

TEST_CASE("MUMPS: a structurally singular pattern is a failed status naming INFOG(1) = -6; a new pattern then factors") {
  if (!linear_solver_built(LinearSolverKind::mumps)) return;
  // Column 1 holds no entry: no permutation gives a zero-free diagonal.
  const CscPattern empty_column{3, {0, 2, 2, 4}, {0, 1, 0, 1}};
  const testing::SparseMatrix A = saddle_point_matrix(30, 9, 3);
  const SparseSystem good = to_csc(A);
  const Vector b = testing::random_vector(good.pattern.n, 4, 1.0);
  auto solver = make_linear_solver(LinearSolverKind::mumps);
  solver->analyze_pattern(empty_column);
  const std::vector<double> values{1.0, 2.0, 3.0, 4.0};
  for (int attempt = 0; attempt < 2; ++attempt) {  // the failed analysis is not kept: the second fails alike
    const FactorizationStatus status = solver->factorize(values);
    MESSAGE(status.message);
    CHECK_FALSE(status.ok);
    CHECK(status.message.find("mumps: the matrix is structurally singular (MUMPS INFOG(1) = -6") == 0);
  }
  solver->analyze_pattern(good.pattern);
  REQUIRE(solver->factorize(good.values).ok);
  CHECK((A * solution(*solver, b) - b).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("MUMPS: several back-ends at once, each with its own pattern, and one made after another's end") {
  if (!linear_solver_built(LinearSolverKind::mumps)) return;
  const testing::SparseMatrix A_small = saddle_point_matrix(20, 6, 21), A_large = saddle_point_matrix(90, 27, 22);
  const SparseSystem small = to_csc(A_small), large = to_csc(A_large);
  auto a = make_linear_solver(LinearSolverKind::mumps);
  auto c = make_linear_solver(LinearSolverKind::mumps);
  a->analyze_pattern(small.pattern);
  c->analyze_pattern(large.pattern);
  REQUIRE(a->factorize(small.values).ok);
  REQUIRE(c->factorize(large.values).ok);
  const Vector b_small = testing::random_vector(small.pattern.n, 24, 1.0);
  CHECK((A_small * solution(*a, b_small) - b_small).cwiseAbs().maxCoeff() <= 1e-12);
  a.reset();  // PETSc stays up for the others
  const Vector b = testing::random_vector(large.pattern.n, 23, 1.0);
  CHECK((A_large * solution(*c, b) - b).cwiseAbs().maxCoeff() <= 1e-12);
  auto d = make_linear_solver(LinearSolverKind::mumps);
  d->analyze_pattern(large.pattern);
  REQUIRE(d->factorize(large.values).ok);
  CHECK((A_large * solution(*d, b) - b).cwiseAbs().maxCoeff() <= 1e-12);
}
