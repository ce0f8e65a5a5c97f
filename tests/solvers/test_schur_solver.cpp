#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/engine/partition.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/schur_solver.hpp>
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::saddle_point_matrix;
using testing::SparseSystem;
using testing::to_csc;

/// The solution of the system by KLU alone, the reference.
std::vector<double> klu_solution(const SparseSystem& s, const std::vector<double>& b, bool transposed) {
  KluSolver klu;
  klu.analyze_pattern(s.pattern);
  REQUIRE(klu.factorize(s.values).ok);
  std::vector<double> x(b.size());
  transposed ? klu.solve_transposed(b, x) : klu.solve(b, x);
  return x;
}

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double difference = 0.0, size = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference = std::max(difference, std::abs(a[i] - b[i]));
    size = std::max(size, std::abs(b[i]));
  }
  return difference / size;
}

std::vector<double> right_side(Index n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = std::sin(0.7 * static_cast<double>(i) + 0.2);
  return b;
}

}  // namespace

TEST_CASE("schur: an interface inside one process's matrix solves as KLU does, both ways") {
  // [K G^T; G 0] with 60 coordinates and 18 rows; the coordinates 27 to 33 form the interface, as
  // if another process's terms touched them too, with the rows that touch them (divide_unknowns'
  // rule). Row r touches the coordinates 3 r, 3 r + 1 and 3 r + 4 (saddle_point_matrix).
  const SparseSystem s = to_csc(saddle_point_matrix(60, 18, 3));
  std::vector<int> owners;
  const auto in_interface = [](Index c) { return c >= 27 && c <= 33; };
  for (Index i = 0; i < 60; ++i) owners.push_back(in_interface(i) ? kSharedUnknown : 0);
  for (Index r = 0; r < 18; ++r)
    owners.push_back(in_interface(3 * r) || in_interface(3 * r + 1) || in_interface(3 * r + 4) ? kSharedUnknown : 0);
  SchurSolver schur(nullptr, owners);
  schur.analyze_pattern(s.pattern);
  CHECK(schur.interface_size() == 7 + 4);  // rows 8 to 11
  REQUIRE(schur.factorize(s.values).ok);
  const std::vector<double> b = right_side(s.pattern.n);
  for (const bool transposed : {false, true}) {
    CAPTURE(transposed);
    std::vector<double> x(b.size());
    transposed ? schur.solve_transposed(b, x) : schur.solve(b, x);
    CHECK(max_relative_difference(x, klu_solution(s, b, transposed)) < 1e-13);
  }
  const FactorizationProfile profile = schur.factorization_profile();
  CHECK(profile.reason.find("interface of 11 unknowns") != std::string::npos);
  CHECK(profile.factor_entries > 121);
}

TEST_CASE("schur: without an interface it is KLU, to the bit") {
  const SparseSystem s = to_csc(saddle_point_matrix(40, 12, 5));
  SchurSolver schur(nullptr, {});
  schur.analyze_pattern(s.pattern);
  CHECK(schur.interface_size() == 0);
  REQUIRE(schur.factorize(s.values).ok);
  const std::vector<double> b = right_side(s.pattern.n);
  std::vector<double> x(b.size());
  schur.solve(b, x);
  CHECK(x == klu_solution(s, b, false));
}

TEST_CASE("schur: a singular interior or interface is a failed status that says which") {
  const SparseSystem s = to_csc(saddle_point_matrix(30, 9, 7));
  const std::vector<double> b = right_side(s.pattern.n);
  SUBCASE("interior") {
    // A constraint row whose coordinates are all in the interface leaves its row of the interior
    // with its zero diagonal alone (divide_unknowns puts such rows in the interface).
    std::vector<int> owners(static_cast<std::size_t>(s.pattern.n), 0);
    for (Index i : {Index{0}, Index{1}, Index{4}}) owners[static_cast<std::size_t>(i)] = kSharedUnknown;  // row 0's
    SchurSolver schur(nullptr, owners);
    schur.analyze_pattern(s.pattern);
    const FactorizationStatus status = schur.factorize(s.values);
    CHECK_FALSE(status.ok);
    CHECK(status.message.find("the interior of process 0") != std::string::npos);
    std::vector<double> x(b.size());
    CHECK_THROWS_AS(schur.solve(b, x), LinearSolverError);
  }
  SUBCASE("interface") {
    // The constraint rows alone as the interface: S = -G A_cc^{-1} G^T restricted... made singular
    // by zeroing row 0's entries, which leaves S a zero row.
    SparseSystem zeroed = s;
    std::vector<int> owners;
    for (Index i = 0; i < s.pattern.n; ++i) owners.push_back(i < 30 ? 0 : kSharedUnknown);
    for (Index j = 0; j < s.pattern.n; ++j)
      for (Index k = s.pattern.column_starts[static_cast<std::size_t>(j)];
           k < s.pattern.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
        if (s.pattern.row_indices[static_cast<std::size_t>(k)] == 30) zeroed.values[static_cast<std::size_t>(k)] = 0.0;
    SchurSolver schur(nullptr, owners);
    schur.analyze_pattern(s.pattern);
    const FactorizationStatus status = schur.factorize(zeroed.values);
    CHECK_FALSE(status.ok);
    CHECK(status.message.find("Schur complement (9 unknowns") != std::string::npos);
  }
}

TEST_CASE("schur: owners of another size are refused") {
  const SparseSystem s = to_csc(saddle_point_matrix(20, 6, 1));
  SchurSolver schur(nullptr, std::vector<int>(5, 0));
  CHECK_THROWS_AS(schur.analyze_pattern(s.pattern), LinearSolverError);
}

TEST_CASE("divide_unknowns: one process's unknowns, the shared ones, and the rows of constraints with a shared coordinate") {
  // Coordinates 0..5, multipliers 6, 7, 8. Process 0: an inertia on 0-2, a constraint on 1, 2
  // (row 6) and one on 2, 3 (row 7); process 1: an inertia on 3-5. Coordinate 3 is shared, and
  // so is row 7 with it; row 9 is touched by none.
  const std::vector<TermUnknowns> terms{{0, {0, 1, 2}, {}}, {0, {1, 2}, {6}}, {0, {2, 3}, {7}}, {1, {3, 4, 5}, {}},
                                        {1, {4, 5}, {8}}};
  const std::vector<int> owners = divide_unknowns(10, terms);
  const int s = kSharedUnknown;
  CHECK(owners == std::vector<int>{0, 0, 0, s, 1, 1, 0, s, 1, s});
}
