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

/// The shape of a grid of closed loops' Newton matrix (grid2d's): [K G^T; G 0] with a point of two
/// coordinates at each node of a side x side grid (K diagonal) and one constraint row per edge
/// between neighbours, each touching both coordinates of its two nodes.
SparseSystem grid_saddle_point(Index side, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  testing::Triplets t;
  const Index d = 2 * side * side;
  for (Index i = 0; i < d; ++i) t.emplace_back(i, i, 4.0 + value(generator));
  Index row = d;
  const auto link = [&](Index a, Index b) {
    for (const Index col : {2 * a, 2 * a + 1, 2 * b, 2 * b + 1}) {
      const double w = value(generator) + (col == 2 * a ? 2.0 : 0.0);
      t.emplace_back(row, col, w);
      t.emplace_back(col, row, w);
    }
    t.emplace_back(row, row, 0.0);
    ++row;
  };
  for (Index i = 0; i < side; ++i)
    for (Index j = 0; j < side; ++j) {
      if (j + 1 < side) link(i * side + j, i * side + j + 1);
      if (i + 1 < side) link(i * side + j, (i + 1) * side + j);
    }
  return to_csc(testing::from_triplets(row, t));
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
  // `first` far from `later`: every fourth entry a thousand times larger, so that MUMPS's scaling
  // and maximum transversal, chosen at the analysis, differ.
  std::vector<double> first = perturbed(s.values, 13);
  for (std::size_t k = 0; k < first.size(); k += 4) first[k] *= 1e3;
  const std::vector<double> later = perturbed(s.values, 14);
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
  // With Debian MUMPS's default maximum transversal (ICNTL(6) = 7) this matrix's analysis happens
  // not to depend on its values, and `refactored` has `expected`'s bits; with a values-based one
  // (PETSC_OPTIONS="-mat_mumps_icntl_6 5") it does not, and the last check below is what fails
  // when forget_factorization keeps the analysis.
  MESSAGE("refactored on the first matrix's analysis, the bits of a fresh solver: ", same_bits(refactored, expected));
  reused->forget_factorization();
  Vector x(s.pattern.n);
  CHECK_THROWS_AS(reused->solve(as_span(b), as_span(x)), LinearSolverError);  // no factors after it
  REQUIRE(reused->factorize(later).ok);
  CHECK(same_bits(solution(*reused, b), expected));
}

TEST_CASE("MUMPS: a structurally singular pattern is a failed status naming INFOG(1) = -6, and a new pattern then factors") {
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

TEST_CASE("MUMPS in one process: the nested dissection given where its own analysis predicts wide fronts") {
  // A grid of loops: MUMPS's own ordering predicts wide fronts, and METIS's nested dissection
  // predicts fewer flops, so automatic gives MUMPS that order (ICNTL(7) = 1).
  const SparseSystem grid = grid_saddle_point(40, 5);
  const auto automatic = make_linear_solver(LinearSolverKind::mumps);
  automatic->analyze_pattern(grid.pattern);
  REQUIRE(automatic->factorize(grid.values).ok);
  const FactorizationProfile chosen = automatic->factorization_profile();
  CHECK(chosen.ordering == "given");
  CHECK(chosen.reason.find("nested dissection") != std::string::npos);
  CHECK(chosen.reason.find("wide fronts") != std::string::npos);
  const auto nd = make_linear_solver(LinearSolverKind::mumps, FillOrdering::nested_dissection);
  nd->analyze_pattern(grid.pattern);
  REQUIRE(nd->factorize(grid.values).ok);
  CHECK(nd->factorization_profile().flops == chosen.flops);  // the same order, the same factorization
  const Vector b = Vector::LinSpaced(grid.pattern.n, -1.0, 1.0);
  const Vector x = solution(*automatic, b);
  CHECK(same_bits(x, solution(*nd, b)));
  Vector residual = -b;
  for (Index j = 0; j < grid.pattern.n; ++j)
    for (Index k = grid.pattern.column_starts[static_cast<std::size_t>(j)];
         k < grid.pattern.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
      residual[grid.pattern.row_indices[static_cast<std::size_t>(k)]] += grid.values[static_cast<std::size_t>(k)] * x[j];
  CHECK(residual.lpNorm<Eigen::Infinity>() < 1e-10 * b.lpNorm<Eigen::Infinity>() * grid.pattern.n);

  // A chain-like saddle point: narrow fronts, MUMPS's own ordering, no METIS call.
  const SparseSystem chain = to_csc(saddle_point_matrix(300, 90, 2));
  const auto own = make_linear_solver(LinearSolverKind::mumps);
  own->analyze_pattern(chain.pattern);
  REQUIRE(own->factorize(chain.values).ok);
  CHECK(own->factorization_profile().ordering != "given");
  CHECK(own->factorization_profile().reason.find("narrow fronts") != std::string::npos);
}

TEST_CASE("MUMPS takes the orderings auto and nd") {
  CHECK_THROWS_WITH_AS(make_linear_solver(LinearSolverKind::mumps, FillOrdering::amd),
                       doctest::Contains("leave the ordering at auto or nd"), LinearSolverError);
  CHECK_THROWS_WITH_AS(make_linear_solver(LinearSolverKind::mumps, FillOrdering::colamd),
                       doctest::Contains("leave the ordering at auto or nd"), LinearSolverError);
}
