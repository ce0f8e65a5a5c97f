#include <doctest/doctest.h>

#include <Eigen/SparseCore>

#include <noether/solvers/linear/klu_solver.hpp>

using namespace noether;

namespace {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;

CscPattern pattern_of(const SparseMatrix& A) {
  return {static_cast<Index>(A.rows()), std::vector<Index>(A.outerIndexPtr(), A.outerIndexPtr() + A.cols() + 1),
          std::vector<Index>(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros())};
}

}  // namespace

TEST_CASE("permute_csc lays A out as B = A(rows, columns), rows sorted in each column, values gathered") {
  // 5 x 5 with distinct values (value 10 i + j at (i, j)) and an empty row 4 in column 2.
  std::vector<Eigen::Triplet<double, Index>> t;
  for (const auto& [i, j] : {std::pair{0, 0}, {2, 0}, {4, 0}, {1, 1}, {3, 1}, {0, 2}, {3, 3}, {4, 3}, {1, 4}, {4, 4}})
    t.emplace_back(i, j, 10.0 * i + j);
  SparseMatrix A(5, 5);
  A.setFromTriplets(t.begin(), t.end());
  A.makeCompressed();
  const CscPattern pattern = pattern_of(A);
  const std::vector<Index> rows{3, 0, 4, 1, 2}, columns{2, 4, 0, 3, 1};

  const PermutedCsc b = permute_csc(pattern, rows, columns);
  std::vector<double> values(static_cast<std::size_t>(b.row_indices.size()));
  gather_permuted_values(b, std::span<const double>(A.valuePtr(), static_cast<std::size_t>(A.nonZeros())), values);

  REQUIRE(b.column_starts.size() == 6);
  REQUIRE(b.row_indices.size() == static_cast<std::size_t>(A.nonZeros()));
  const Eigen::MatrixXd dense_a(A);
  Eigen::MatrixXd dense_b = Eigen::MatrixXd::Zero(5, 5);
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for (Index j = 0; j < 5; ++j)
    for (Index k = b.column_starts[at(j)]; k < b.column_starts[at(j) + 1]; ++k) {
      if (k > b.column_starts[at(j)]) CHECK(b.row_indices[at(k - 1)] < b.row_indices[at(k)]);
      dense_b(b.row_indices[at(k)], j) = values[at(k)];
    }
  for (Index i = 0; i < 5; ++i)
    for (Index j = 0; j < 5; ++j) CHECK(dense_b(i, j) == dense_a(rows[at(i)], columns[at(j)]));
}

TEST_CASE("permute_csc refuses orders that are not permutations, naming the entry") {
  const CscPattern identity{3, {0, 1, 2, 3}, {0, 1, 2}};
  const std::vector<Index> fine{2, 0, 1};
  CHECK_THROWS_WITH_AS(permute_csc(identity, std::vector<Index>{0, 2, 2}, fine),
                       doctest::Contains("rows[2] = 2 is out of range or repeated"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(permute_csc(identity, fine, std::vector<Index>{0, 3, 1}),
                       doctest::Contains("columns[1] = 3 is out of range or repeated"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(permute_csc(identity, fine, std::vector<Index>{0, 1}),
                       doctest::Contains("columns holds 2 entries, expected 3"), std::invalid_argument);
}
