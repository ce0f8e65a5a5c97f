#include <map>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <mpi.h>

#include <noether/engine/assembler.hpp>
#include <noether/engine/distribution.hpp>

#include "mpi/mpi_world.hpp"

using namespace noether;

namespace {

/// Overlapping units of five dofs along n unknowns, two blocks each (one constant).
std::vector<UnitLayout> overlapping_units(Index n, Index count) {
  std::vector<UnitLayout> units;
  std::mt19937 generator(11);
  for (Index u = 0; u < count; ++u) {
    const Index first = static_cast<Index>(generator() % static_cast<unsigned>(n - 4));
    UnitLayout unit;
    unit.dofs = {first, first + 1, first + 3, first + 2, first + 1};
    unit.blocks = {{0, 3, 0, 5}, {3, 2, 1, 2}};
    unit.blocks[1].constant = true;
    units.push_back(unit);
  }
  return units;
}

/// Small whole numbers: every sum of them is exact, in whatever order the processes add them, so
/// that the distributed assembly must equal the one-process one to the bit.
double unit_value(Index u, Index i) { return static_cast<double>((7 * u + 3 * i) % 17) - 8.0; }

void fill(Index u, UnitOutput& out) {
  for (Index i = 0; i < out.residual().size(); ++i) {
    out.residual()(i) += unit_value(u, i);
    out.scale()(i) += 20.0;
    out.floor()(i) += 1.0;
  }
  if (out.global_sums().size() == 1) {
    out.global_sums()[0] += unit_value(u, 99);
    if (out.with_matrix())
      for (Index i = 0; i < out.residual().size(); ++i) {
        out.global_column()(i) += unit_value(u, 50 + i);
        out.global_row()(i) += unit_value(u, 70 + i);
      }
  }
  if (!out.with_matrix()) return;
  for (std::size_t k = 0; k < 2; ++k) {
    auto block = out.block(k);
    for (Index j = 0; j < block.cols(); ++j)
      for (Index i = 0; i < block.rows(); ++i) block(i, j) += unit_value(u, 10 * static_cast<Index>(k) + 3 * j + i);
  }
}

/// The plan of the units this process owns (by their smallest dof, in contiguous runs of the dofs),
/// naming each by its index in `units`.
AssemblyPlan owned_plan(Index n, const std::vector<UnitLayout>& units, const Distribution& processes) {
  std::vector<UnitLayout> owned;
  std::vector<Index> ids;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const Index first = *std::min_element(units[u].dofs.begin(), units[u].dofs.end());
    if (first * processes.ranks() / n != processes.rank()) continue;
    owned.push_back(units[u]);
    ids.push_back(static_cast<Index>(u));
  }
  return AssemblyPlan(n, owned, ids);
}

/// The processes' matrix parts summed entry by entry, on every process: each sends its
/// (row, column, value) triples, in pattern order.
std::map<std::pair<Index, Index>, double> summed_parts(const CscPattern& p, std::span<const double> values) {
  std::vector<double> mine;
  for (Index j = 0; j < p.n; ++j)
    for (Index k = p.column_starts[static_cast<std::size_t>(j)]; k < p.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
      mine.insert(mine.end(), {static_cast<double>(p.row_indices[static_cast<std::size_t>(k)]), static_cast<double>(j),
                               values[static_cast<std::size_t>(k)]});
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (std::size_t r = 1; r < counts.size(); ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
  std::vector<double> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  std::map<std::pair<Index, Index>, double> sum;
  for (std::size_t i = 0; i < all.size(); i += 3)
    sum[{static_cast<Index>(all[i]), static_cast<Index>(all[i + 1])}] += all[i + 2];
  return sum;
}

}  // namespace

TEST_CASE("distributed assembly: the processes' residual is the whole system's, their matrix parts sum to its matrix") {
  const MpiDistribution& processes = testing::world();
  REQUIRE(processes.ranks() >= 2);
  const Index n = 60;
  const auto units = overlapping_units(n, 90);
  Assembler whole{AssemblyPlan(n, units)};
  Assembler part{owned_plan(n, units, processes), 0, 0, &processes};
  CHECK(part.plan().num_units() < whole.plan().num_units());  // each process evaluates a part

  Vector start(n);
  for (Index i = 0; i < n; ++i) start(i) = static_cast<double>(i % 5);
  Vector r1(n), s1(n), f1(n), r2(n), s2(n), f2(n);
  for (int assembly = 0; assembly < 2; ++assembly) {  // the second reuses the constant blocks
    whole.assemble(fill, start, r1, s1, f1, true);
    part.assemble(fill, start, r2, s2, f2, true);
    CHECK(r2 == r1);  // `start` counted once, every unit's rows once
    CHECK(s2 == s1);
    CHECK(f2 == f1);
    const auto summed = summed_parts(part.pattern(), part.values());
    const CscPattern& p = whole.pattern();
    std::size_t entries = 0;
    for (Index j = 0; j < p.n; ++j)
      for (Index k = p.column_starts[static_cast<std::size_t>(j)]; k < p.column_starts[static_cast<std::size_t>(j) + 1]; ++k) {
        const auto found = summed.find({p.row_indices[static_cast<std::size_t>(k)], j});
        REQUIRE(found != summed.end());
        CHECK(found->second == whole.values()[static_cast<std::size_t>(k)]);
        ++entries;
      }
    CHECK(entries == summed.size());
  }
}

TEST_CASE("distributed assembly: global terms are summed over the processes") {
  const MpiDistribution& processes = testing::world();
  const Index n = 40;
  const auto units = overlapping_units(n, 50);
  Assembler whole{AssemblyPlan(n, units), 0, 1};
  Assembler part{owned_plan(n, units, processes), 0, 1, &processes};
  const Vector start = Vector::Zero(n);
  Vector r1(n), s1(n), f1(n), c1(n), w1(n), r2(n), s2(n), f2(n), c2(n), w2(n);
  double sum1 = 0.0, sum2 = 0.0;
  GlobalTermsOutput g1{c1, w1, {&sum1, 1}}, g2{c2, w2, {&sum2, 1}};
  whole.assemble(fill, start, r1, s1, f1, true, g1);
  part.assemble(fill, start, r2, s2, f2, true, g2);
  CHECK(r2 == r1);
  CHECK(c2 == c1);
  CHECK(w2 == w1);
  CHECK(sum2 == sum1);
}

TEST_CASE("MPI sum: rank order, the same bits on every process") {
  const MpiDistribution& processes = testing::world();
  // 1, 1e-16, 1e-16, ...: added in rank order from 1, each small term rounds away; with three
  // processes or more, an order that adds the small ones first keeps them (1 + 2e-16 rounds up).
  std::vector<double> value{processes.rank() == 0 ? 1.0 : 1e-16};
  processes.sum(value);
  CHECK(value[0] == 1.0);
  CHECK(!processes.any(false));
  CHECK(processes.any(processes.rank() == processes.ranks() - 1));
}
