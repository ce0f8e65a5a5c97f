/// Nested-dissection orderings (solvers/linear/nested_dissection.hpp) and the orderings the LU
/// back-ends take (FillOrdering): valid permutations, the fill they are for, the same solutions.
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include <doctest/doctest.h>

#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/linear/nested_dissection.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>
#include "support/finite_differences.hpp"
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::SparseMatrix;
using testing::Triplets;
using testing::from_triplets;
using testing::grid_laplacian;

/// An unsymmetric matrix on the grid's graph: each coupling holds another value each way, and some
/// only one way, so that A + A^T has entries A lacks.
SparseMatrix unsymmetric_grid(Index side) {
  Triplets t;
  for (Index i = 0; i < side; ++i)
    for (Index j = 0; j < side; ++j) {
      const Index k = i * side + j;
      t.emplace_back(k, k, 5.0 + 0.01 * static_cast<double>(k % 7));
      if (i + 1 < side) t.insert(t.end(), {{k, k + side, -1.3}, {k + side, k, -0.7}});
      if (j + 1 < side) t.emplace_back(k + 1, k, -1.1);  // below the diagonal only
    }
  return from_triplets(side * side, t);
}

CscPattern pattern_of(const SparseMatrix& A) {
  return {static_cast<Index>(A.rows()), {A.outerIndexPtr(), A.outerIndexPtr() + A.cols() + 1},
          {A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros()}};
}

std::span<const double> values_of(const SparseMatrix& A) {
  return {A.valuePtr(), static_cast<std::size_t>(A.nonZeros())};
}

bool is_permutation_of_range(std::vector<Index> p) {
  std::sort(p.begin(), p.end());
  std::vector<Index> identity(p.size());
  std::iota(identity.begin(), identity.end(), 0);
  return p == identity;
}

/// Nonzeros of the Cholesky factor L of the symmetric pattern A(order, order) (diagonal included),
/// from the elimination tree's row counts done the plain way: for each row, the columns reached
/// from its entries up the tree (Liu's row subtrees).
std::int64_t cholesky_entries(const SparseMatrix& A, const std::vector<Index>& order) {
  const Index n = static_cast<Index>(A.rows());
  const std::vector<Index> position = elimination_positions(order);
  std::vector<std::vector<Index>> lower(static_cast<std::size_t>(n));  // row -> earlier columns
  for (Index j = 0; j < n; ++j)
    for (SparseMatrix::InnerIterator it(A, j); it; ++it) {
      const Index r = position[static_cast<std::size_t>(it.row())], c = position[static_cast<std::size_t>(j)];
      if (r > c) lower[static_cast<std::size_t>(r)].push_back(c);
      if (c > r) lower[static_cast<std::size_t>(c)].push_back(r);
    }
  std::vector<Index> parent(static_cast<std::size_t>(n), -1), mark(static_cast<std::size_t>(n), -1);
  std::int64_t entries = n;
  for (Index i = 0; i < n; ++i) {
    mark[static_cast<std::size_t>(i)] = i;
    for (Index k : lower[static_cast<std::size_t>(i)]) {
      for (; mark[static_cast<std::size_t>(k)] != i; k = parent[static_cast<std::size_t>(k)]) {
        if (parent[static_cast<std::size_t>(k)] == -1) parent[static_cast<std::size_t>(k)] = i;
        mark[static_cast<std::size_t>(k)] = i;
        ++entries;
      }
    }
  }
  return entries;
}

/// x with A x = b for a known x, by `solver` after analyze_pattern and factorize; max |x - x_true|.
double solve_error(LinearSolver& solver, const SparseMatrix& A, const CscPattern& pattern) {
  solver.analyze_pattern(pattern);
  REQUIRE(solver.factorize(values_of(A)).ok);
  const Vector x_true = testing::random_vector(A.rows(), 5, 1.0);
  const Vector b = A * x_true;
  Vector x(A.rows());
  solver.solve({b.data(), static_cast<std::size_t>(b.size())}, {x.data(), static_cast<std::size_t>(x.size())});
  return (x - x_true).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("nested_dissection_order is a permutation, with its positions the inverse") {
  for (const SparseMatrix& A : {grid_laplacian(1), grid_laplacian(30), unsymmetric_grid(25)}) {
    const std::vector<Index> order = nested_dissection_order(pattern_of(A));
    REQUIRE(order.size() == static_cast<std::size_t>(A.rows()));
    CHECK(is_permutation_of_range(order));
    const std::vector<Index> position = elimination_positions(order);
    for (std::size_t k = 0; k < order.size(); ++k) CHECK(position[static_cast<std::size_t>(order[k])] == Index(k));
  }
  // Unsorted rows and repeated entries describe the same graph.
  const CscPattern repeated{3, {0, 3, 5, 7}, {2, 0, 2, 1, 0, 2, 1}};
  CHECK(is_permutation_of_range(nested_dissection_order(repeated)));
  // No off-diagonal entry: nothing to dissect, the given order.
  const CscPattern diagonal{4, {0, 1, 2, 3, 4}, {0, 1, 2, 3}};
  CHECK(nested_dissection_order(diagonal) == std::vector<Index>{0, 1, 2, 3});
  CHECK(nested_dissection_order(CscPattern{0, {0}, {}}).empty());
}

TEST_CASE("nested_dissection_order refuses arrays that are not an n x n pattern, naming the entry") {
  CHECK_THROWS_WITH_AS(nested_dissection_order(3, std::vector<Index>{0, 1}, std::vector<Index>{0}),
                       doctest::Contains("n + 1 = 4"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(nested_dissection_order(2, std::vector<Index>{0, 1, 2}, std::vector<Index>{0, 5}),
                       doctest::Contains("row index 5 in column 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(nested_dissection_order(2, std::vector<Index>{0, 2, 1}, std::vector<Index>{0, 1}),
                       doctest::Contains("0 to the 2 row indices"), std::invalid_argument);
}

TEST_CASE("on a grid, the nested-dissection order fills the Cholesky factor less than the band and its inverse") {
  // A 60 x 60 grid: the row-by-row numbering is a band of width 60 (about 60 entries per row of L);
  // nested dissection's separators give O(n log n). Reading METIS's two arrays the wrong way round
  // gives an order that is neither, and fills in more than the band.
  const SparseMatrix A = grid_laplacian(60);
  const std::vector<Index> nd = nested_dissection_order(pattern_of(A));
  std::vector<Index> natural(nd.size());
  std::iota(natural.begin(), natural.end(), 0);
  const std::int64_t nd_entries = cholesky_entries(A, nd), band = cholesky_entries(A, natural);
  const std::int64_t inverse = cholesky_entries(A, elimination_positions(nd));
  MESSAGE("L entries: nested dissection ", nd_entries, ", band ", band, ", inverse order ", inverse);
  CHECK(2 * nd_entries < band);
  CHECK(nd_entries < inverse);
  CHECK(band < inverse);
}

TEST_CASE("KLU and UMFPACK under every ordering solve alike and report the ordering asked for") {
  const SparseMatrix A = unsymmetric_grid(40);
  const CscPattern pattern = pattern_of(A);
  for (LinearSolverKind kind : {LinearSolverKind::klu, LinearSolverKind::umfpack})
    for (FillOrdering ordering :
         {FillOrdering::automatic, FillOrdering::nested_dissection, FillOrdering::amd, FillOrdering::colamd}) {
      CAPTURE(to_string(kind));
      CAPTURE(to_string(ordering));
      const auto solver = make_linear_solver(kind, ordering);
      CHECK(solve_error(*solver, A, pattern) <= 1e-12);
      const FactorizationProfile profile = solver->factorization_profile();
      CHECK(profile.factor_entries >= pattern.n);
      CHECK(profile.flops > 0.0);
      if (ordering == FillOrdering::nested_dissection) CHECK(profile.ordering == "nd");
      if (ordering == FillOrdering::amd) CHECK(profile.ordering == "amd");
      CHECK(!profile.reason.empty());
    }
}

TEST_CASE("the orderings are for KLU and UMFPACK: CHOLMOD and Eigen take automatic only") {
  for (LinearSolverKind kind : {LinearSolverKind::cholmod, LinearSolverKind::eigen}) {
    CHECK_NOTHROW(make_linear_solver(kind, FillOrdering::automatic));
    CHECK_THROWS_WITH_AS(make_linear_solver(kind, FillOrdering::nested_dissection),
                         doctest::Contains("applies to klu, umfpack, schur and auto"), LinearSolverError);
  }
  for (FillOrdering ordering :
       {FillOrdering::automatic, FillOrdering::nested_dissection, FillOrdering::amd, FillOrdering::colamd})
    CHECK(parse_fill_ordering(to_string(ordering)) == ordering);
  CHECK_FALSE(parse_fill_ordering("metis"));
}

TEST_CASE("UMFPACK's automatic ordering is UMFPACK's own strategy, nd only when asked for") {
  const SparseMatrix A = unsymmetric_grid(60);
  const CscPattern pattern = pattern_of(A);
  UmfpackSolver automatic, nd(FillOrdering::nested_dissection);
  CHECK(solve_error(automatic, A, pattern) <= 1e-12);
  CHECK(solve_error(nd, A, pattern) <= 1e-12);
  MESSAGE("automatic: ", automatic.factorization_profile().reason, "; nd: ", nd.factorization_profile().reason);
  CHECK(automatic.factorization_profile().ordering != "nd");
  CHECK(nd.factorization_profile().ordering == "nd");
  // The two orders differ, and so do the factors.
  CHECK(automatic.factorization_profile().factor_entries != nd.factorization_profile().factor_entries);
}
