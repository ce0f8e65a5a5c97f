#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/engine/partition.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/linear/schur_solver.hpp>

#include "mpi/mpi_world.hpp"
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::saddle_point_matrix;
using testing::SparseSystem;
using testing::to_csc;

/// Where the unknowns of [K G^T; G 0] (d coordinates) lie among `ranks` processes, as
/// divide_unknowns would put them: coordinate i on process i ranks / d, constraint row r with
/// its first coordinate 3 r; an unknown coupled to another process's is shared, and so is a row
/// with a shared coordinate.
std::vector<int> owners_of(const CscPattern& p, Index d, int ranks) {
  std::vector<int> process(static_cast<std::size_t>(p.n));
  for (Index i = 0; i < p.n; ++i)
    process[static_cast<std::size_t>(i)] = static_cast<int>((i < d ? i : 3 * (i - d)) * ranks / d);
  std::vector<int> owners = process;
  for (Index j = 0; j < p.n; ++j)
    for (Index k = p.column_starts[static_cast<std::size_t>(j)]; k < p.column_starts[static_cast<std::size_t>(j) + 1]; ++k) {
      const auto i = static_cast<std::size_t>(p.row_indices[static_cast<std::size_t>(k)]);
      if (process[i] != process[static_cast<std::size_t>(j)])
        owners[i] = owners[static_cast<std::size_t>(j)] = kSharedUnknown;
    }
  std::vector<int> rows = owners;
  for (Index r = d; r < p.n; ++r)
    for (Index k = p.column_starts[static_cast<std::size_t>(r)]; k < p.column_starts[static_cast<std::size_t>(r) + 1]; ++k)
      if (owners[static_cast<std::size_t>(p.row_indices[static_cast<std::size_t>(k)])] == kSharedUnknown)
        rows[static_cast<std::size_t>(r)] = kSharedUnknown;
  return rows;
}

/// This process's part of the values: the entries of its interior's rows and columns, and a
/// share of the interface block's (each entry there on one process by (i + j) mod ranks, so that
/// the parts sum to the matrix); the others 0.
std::vector<double> part_of(const SparseSystem& s, const std::vector<int>& owners, int rank, int ranks) {
  std::vector<double> part(s.values.size(), 0.0);
  for (Index j = 0; j < s.pattern.n; ++j)
    for (Index k = s.pattern.column_starts[static_cast<std::size_t>(j)];
         k < s.pattern.column_starts[static_cast<std::size_t>(j) + 1]; ++k) {
      const Index i = s.pattern.row_indices[static_cast<std::size_t>(k)];
      const int oi = owners[static_cast<std::size_t>(i)], oj = owners[static_cast<std::size_t>(j)];
      const int holder = oi != kSharedUnknown ? oi : oj != kSharedUnknown ? oj : static_cast<int>((i + j) % ranks);
      if (holder == rank) part[static_cast<std::size_t>(k)] = s.values[static_cast<std::size_t>(k)];
    }
  return part;
}

}  // namespace

TEST_CASE("schur over processes: each factors its interior, together they solve as KLU does, to the same bits on each") {
  const MpiDistribution& processes = testing::world();
  const Index d = 240, m = 70;
  const SparseSystem s = to_csc(saddle_point_matrix(d, m, 13));
  const std::vector<int> owners = owners_of(s.pattern, d, processes.ranks());
  const auto shared = std::ranges::count(owners, kSharedUnknown);
  CHECK(shared > 0);
  CHECK(shared < 20 * (processes.ranks() - 1));  // a chain's cut: a few unknowns

  const std::unique_ptr<LinearSolver> schur =
      make_linear_solver(LinearSolverKind::automatic, FillOrdering::automatic, &processes, {owners, {}});
  CHECK(schur->kind() == LinearSolverKind::schur);  // auto's choice for a small interface
  schur->analyze_pattern(s.pattern);
  REQUIRE(schur->factorize(part_of(s, owners, processes.rank(), processes.ranks())).ok);
  KluSolver klu;
  klu.analyze_pattern(s.pattern);
  REQUIRE(klu.factorize(s.values).ok);

  std::vector<double> b(static_cast<std::size_t>(s.pattern.n));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.3 * static_cast<double>(i));
  for (const bool transposed : {false, true}) {
    CAPTURE(transposed);
    std::vector<double> x(b.size()), reference(b.size());
    transposed ? schur->solve_transposed(b, x) : schur->solve(b, x);
    transposed ? klu.solve_transposed(b, reference) : klu.solve(b, reference);
    double difference = 0.0, size = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      difference = std::max(difference, std::abs(x[i] - reference[i]));
      size = std::max(size, std::abs(reference[i]));
    }
    CHECK(difference <= 1e-13 * size);
    std::vector<double> first = x;  // rank 0's solution, sent to all: every process must hold it
    std::vector<double> zero(x.size(), 0.0);
    std::vector<double> spread = processes.rank() == 0 ? first : zero;
    processes.sum(spread);
    CHECK(spread == x);
  }
}

TEST_CASE("schur over processes: one process's singular interior fails the factorization on every process") {
  const MpiDistribution& processes = testing::world();
  const Index d = 120, m = 30;
  SparseSystem s = to_csc(saddle_point_matrix(d, m, 17));
  const std::vector<int> owners = owners_of(s.pattern, d, processes.ranks());
  // Zero coordinate 1's column (process 0's interior): its interior is singular.
  for (Index k = s.pattern.column_starts[1]; k < s.pattern.column_starts[2]; ++k) s.values[static_cast<std::size_t>(k)] = 0.0;
  SchurSolver schur(&processes, owners);
  schur.analyze_pattern(s.pattern);
  const FactorizationStatus status = schur.factorize(part_of(s, owners, processes.rank(), processes.ranks()));
  CHECK_FALSE(status.ok);
  // Every process reports process 0's own words (KLU's), not only process 0.
  const std::string head = "schur: the interior of process 0: ";
  REQUIRE(status.message.rfind(head, 0) == 0);
  CHECK(status.message.size() > head.size() + 10);
  std::vector<double> sizes(static_cast<std::size_t>(processes.ranks()), 0.0);
  sizes[static_cast<std::size_t>(processes.rank())] = static_cast<double>(std::hash<std::string>{}(status.message) % 1000003);
  processes.sum(sizes);
  CHECK(std::ranges::all_of(sizes, [&](double v) { return v == sizes.front(); }));
}

TEST_CASE("mumps over processes orders the distributed matrix itself: a given ordering is refused, saying what to give") {
  const MpiDistribution& processes = testing::world();
  CHECK_THROWS_WITH_AS(make_linear_solver(LinearSolverKind::mumps, FillOrdering::nested_dissection, &processes),
                       doctest::Contains("leave the ordering at auto, not nd"), LinearSolverError);
  CHECK_NOTHROW(make_linear_solver(LinearSolverKind::mumps, FillOrdering::automatic, &processes));
}
