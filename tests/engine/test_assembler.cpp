#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include <doctest/doctest.h>
#include <tbb/task_arena.h>

#include <noether/engine/assembler.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

/// A chain-like set of overlapping units with pseudo-random local values, so many global entries
/// receive several contributions whose sum depends on the order of addition.
std::vector<UnitLayout> overlapping_units(Index n, Index units) {
  std::vector<UnitLayout> layouts;
  std::mt19937 generator(7);
  for (Index u = 0; u < units; ++u) {
    const Index first = static_cast<Index>(generator() % static_cast<unsigned>(n - 4));
    UnitLayout layout;
    layout.dofs = {first, first + 1, first + 3, first + 2, first + 1};  // a repeated dof adds up
    layout.blocks = {{0, 3, 0, 5}, {3, 2, 1, 2}};
    layouts.push_back(layout);
  }
  return layouts;
}

double unit_value(Index u, Index i) { return std::sin(0.37 * u + 1.3 * i) * 1e3 + 1.0 / (1.0 + u + i); }

void fill(Index u, UnitOutput& out) {
  for (Index i = 0; i < out.residual().size(); ++i) out.residual()(i) += unit_value(u, i);
  if (!out.with_matrix()) return;
  for (std::size_t k = 0; k < 2; ++k) {
    auto block = out.block(k);
    for (Index j = 0; j < block.cols(); ++j)
      for (Index i = 0; i < block.rows(); ++i) block(i, j) += unit_value(u, 10 * static_cast<Index>(k) + 3 * j + i);
  }
}

/// The matrix of `values` (pattern order) as a dense n x n matrix.
Matrix dense_matrix(const CscPattern& p, std::span<const double> values) {
  Matrix dense = Matrix::Zero(p.n, p.n);
  for (Index j = 0; j < p.n; ++j)
    for (Index k = p.column_starts[static_cast<std::size_t>(j)]; k < p.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
      dense(p.row_indices[static_cast<std::size_t>(k)], j) = values[static_cast<std::size_t>(k)];
  return dense;
}

/// The sum of every unit's local matrix entry `entry(u, k, local_index)` of block k at its global
/// position, by dense accumulation (the reference for the assembler's sparse scatter).
template <class Entry>
Matrix dense_reference(Index n, const std::vector<UnitLayout>& layouts, Entry&& entry) {
  Matrix dense = Matrix::Zero(n, n);
  for (Index u = 0; u < static_cast<Index>(layouts.size()); ++u) {
    const UnitLayout& l = layouts[static_cast<std::size_t>(u)];
    for (std::size_t k = 0; k < l.blocks.size(); ++k) {
      const LocalBlock& b = l.blocks[k];
      for (Index j = 0; j < b.cols; ++j)
        for (Index i = 0; i < b.rows; ++i)
          dense(l.dofs[static_cast<std::size_t>(b.row_begin + i)], l.dofs[static_cast<std::size_t>(b.col_begin + j)]) +=
              entry(u, k, 10 * static_cast<Index>(k) + 3 * j + i);
    }
  }
  return dense;
}

}  // namespace

TEST_CASE("assembly equals a dense reference sum, also when it overwrites an earlier one") {
  const Index n = 40;
  const auto layouts = overlapping_units(n, 60);
  Assembler assembler{AssemblyPlan(n, layouts)};
  // The assembler assigns each entry's first contribution instead of zeroing the matrix: neither
  // the stale residual (here NaN) nor the first assembly's values may survive into the second.
  Vector residual = Vector::Constant(n, std::nan(""));
  assembler.assemble(fill, residual, true);
  residual.setConstant(std::nan(""));
  assembler.assemble(fill, residual, true);

  Vector residual_reference = Vector::Zero(n);
  for (Index u = 0; u < static_cast<Index>(layouts.size()); ++u) {
    const UnitLayout& l = layouts[static_cast<std::size_t>(u)];
    for (std::size_t i = 0; i < l.dofs.size(); ++i) residual_reference(l.dofs[i]) += unit_value(u, static_cast<Index>(i));
  }
  const Matrix reference = dense_reference(n, layouts, [](Index u, std::size_t, Index i) { return unit_value(u, i); });
  CHECK((dense_matrix(assembler.pattern(), assembler.values()) - reference).cwiseAbs().maxCoeff() <= 1e-9);
  CHECK((residual - residual_reference).cwiseAbs().maxCoeff() <= 1e-9);
  for (Index i = 0; i < n; ++i) CHECK(assembler.pattern().find(i, i) >= 0);  // diagonal always structural
}

TEST_CASE("an assembly with a start vector adds the units to it, whatever the residual held") {
  const Index n = 40;
  const auto layouts = overlapping_units(n, 60);
  Assembler assembler{AssemblyPlan(n, layouts)};
  Vector from_zero(n);
  assembler.assemble(fill, from_zero, true);
  Vector start(n);
  for (Index i = 0; i < n; ++i) start(i) = (i % 3 == 0) ? 0.0 : 1e2 * std::cos(0.7 * i);
  Vector residual = Vector::Constant(n, std::nan(""));
  assembler.assemble(fill, start, residual, false);
  // Each row is its start plus the units' contributions; (start + u1) + u2 and (u1 + u2) + start
  // may round differently, so compare with a tolerance, and bit for bit in the rows whose start is 0.
  CHECK((residual - (start + from_zero)).cwiseAbs().maxCoeff() <= 1e-9);
  for (Index i = 0; i < n; i += 3) CHECK(residual(i) == from_zero(i));
}

TEST_CASE("constant blocks are written once and after each invalidation, and the sums stay exact") {
  const Index n = 40;
  auto layouts = overlapping_units(n, 60);
  // Every third unit has a constant first block, every fifth only constant blocks: many entries
  // mix constant and varying contributions.
  for (Index u = 0; u < 60; ++u) {
    std::vector<LocalBlock>& blocks = layouts[static_cast<std::size_t>(u)].blocks;
    blocks[0].constant = u % 3 == 0 || u % 5 == 0;
    blocks[1].constant = u % 5 == 0;
  }
  Assembler assembler{AssemblyPlan(n, layouts)};
  double constant_scale = 1.0, varying_scale = 1.0;
  std::vector<int> matrix_requests(60, 0);
  auto entry = [&](Index u, std::size_t k, Index i) {
    return unit_value(u, i) * (layouts[static_cast<std::size_t>(u)].blocks[k].constant ? constant_scale : varying_scale);
  };
  auto eval = [&](Index u, UnitOutput& out) {
    out.residual()(0) = 1.0;
    if (!out.with_matrix()) return;
    ++matrix_requests[static_cast<std::size_t>(u)];
    for (std::size_t k = 0; k < 2; ++k) {
      auto block = out.block(k);
      for (Index j = 0; j < block.cols(); ++j)
        for (Index i = 0; i < block.rows(); ++i) block(i, j) = entry(u, k, 10 * static_cast<Index>(k) + 3 * j + i);
    }
  };
  Vector residual(n);
  auto error = [&] {
    return (dense_matrix(assembler.pattern(), assembler.values()) - dense_reference(n, layouts, entry)).cwiseAbs().maxCoeff();
  };

  assembler.assemble(eval, residual, false);  // the residual alone writes no constants
  CHECK(matrix_requests[5] == 0);
  assembler.assemble(eval, residual, true);  // the first matrix: constants and varying entries
  CHECK(error() <= 1e-9);
  CHECK(matrix_requests[5] == 1);  // only constant blocks: evaluated once, for the constants
  CHECK(matrix_requests[3] == 2);  // mixed: once for the constant block, once for the varying one

  varying_scale = -2.5;  // a new iterate: only the varying entries are evaluated and rewritten
  assembler.assemble(eval, residual, true);
  CHECK(error() <= 1e-9);
  CHECK(matrix_requests[5] == 1);
  CHECK(matrix_requests[3] == 3);

  // The constants are read only when invalidated: until then the matrix keeps the old ones.
  constant_scale = 3.0;
  assembler.assemble(eval, residual, true);
  CHECK(error() > 1.0);
  assembler.invalidate_constants();
  assembler.assemble(eval, residual, true);
  CHECK(error() <= 1e-9);

  // Writing the constants and reusing them give the same bytes.
  assembler.assemble(eval, residual, true);
  const std::vector<double> reused(assembler.values().begin(), assembler.values().end());
  Assembler fresh{AssemblyPlan(n, layouts)};
  fresh.assemble(eval, residual, true);
  CHECK(std::memcmp(fresh.values().data(), reused.data(), sizeof(double) * reused.size()) == 0);
}

TEST_CASE("assembly is bitwise identical with 1, 2 and 8 threads") {
  const Index n = 500;
  auto layouts = overlapping_units(n, 4000);
  for (std::size_t u = 0; u < layouts.size(); u += 3) layouts[u].blocks[0].constant = true;
  auto run = [&](int threads) {
    Assembler assembler{AssemblyPlan(n, layouts)};
    Vector residual(n);
    tbb::task_arena arena(threads);
    // The first assembly writes the constant blocks, the second only the others.
    arena.execute([&] { assembler.assemble(fill, residual, true); });
    arena.execute([&] { assembler.assemble(fill, residual, true); });
    return std::pair{residual, std::vector<double>(assembler.values().begin(), assembler.values().end())};
  };
  const auto [r1, v1] = run(1);
  for (int threads : {2, 8}) {
    const auto [r, v] = run(threads);
    CAPTURE(threads);
    CHECK(std::memcmp(r.data(), r1.data(), sizeof(double) * static_cast<std::size_t>(n)) == 0);
    CHECK(std::memcmp(v.data(), v1.data(), sizeof(double) * v1.size()) == 0);
  }
}

TEST_CASE("an assembly plan rejects a unit outside the system") {
  std::vector<UnitLayout> layouts{{{0, 5}, {{0, 2, 0, 2}}}};
  CHECK_THROWS_AS(AssemblyPlan(3, layouts), std::invalid_argument);
  std::vector<UnitLayout> bad_block{{{0, 1}, {{1, 2, 0, 1}}}};
  CHECK_THROWS_AS(AssemblyPlan(3, bad_block), std::invalid_argument);
}

TEST_CASE("structure masks keep structural zeros out of the pattern") {
  LocalBlock block{0, 2, 0, 2};
  block.structure.resize(2, 2);
  block.structure << true, false, false, true;
  const std::vector<UnitLayout> layouts{{{0, 2}, {block}}, {{1, 2}, {{0, 2, 0, 2}}}};
  Assembler assembler{AssemblyPlan(3, layouts)};
  const CscPattern& p = assembler.pattern();
  CHECK(p.find(2, 0) == -1);  // only the masked unit couples unknowns 0 and 2
  CHECK(p.find(0, 2) == -1);
  CHECK(p.find(1, 2) >= 0);
  CHECK(p.nnz() == 3 + 2);  // three diagonal entries and the dense unit's (1, 2), (2, 1)
}

TEST_CASE("an assembly schedule covers every unit once and never runs units sharing an unknown together") {
  const Index n = 300;
  auto layouts = overlapping_units(n, 2000);
  layouts.push_back({{0, n / 2, n - 1}, {}});  // couples the ends: needs a color of its own
  for (Index units_per_chunk : {1, 7, 32}) {
    CAPTURE(units_per_chunk);
    const AssemblySchedule s = make_assembly_schedule(
        n, static_cast<Index>(layouts.size()),
        [&](Index u) { return std::span<const Index>(layouts[static_cast<std::size_t>(u)].dofs); }, units_per_chunk);
    std::vector<Index> seen(layouts.size(), 0);
    for (Index u : s.units) ++seen[static_cast<std::size_t>(u)];
    CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(layouts.size()));
    for (Index c = 0; c < s.num_colors(); ++c) {
      std::vector<Index> owner(static_cast<std::size_t>(n), -1);
      bool disjoint = true;
      for (Index k = s.color_starts[static_cast<std::size_t>(c)]; k < s.color_starts[static_cast<std::size_t>(c) + 1]; ++k) {
        const Index chunk = s.chunks[static_cast<std::size_t>(k)];
        for (Index i = s.chunk_starts[static_cast<std::size_t>(chunk)]; i < s.chunk_starts[static_cast<std::size_t>(chunk) + 1]; ++i)
          for (Index dof : layouts[static_cast<std::size_t>(s.units[static_cast<std::size_t>(i)])].dofs) {
            Index& o = owner[static_cast<std::size_t>(dof)];
            disjoint = disjoint && (o == -1 || o == chunk);
            o = chunk;
          }
      }
      CHECK(disjoint);
    }
  }
}

TEST_CASE("assembly chunks: about 64 of them, each of 32 to 4096 units") {
  CHECK(default_units_per_chunk(10) == 32);  // fewer units than one chunk: one chunk
  CHECK(default_units_per_chunk(64 * 32 - 1) == 32);
  for (Index units : {64 * 32, 20000, 64 * 4096}) {
    CAPTURE(units);
    const Index size = default_units_per_chunk(units);
    CHECK((units + size - 1) / size >= 64);
    CHECK((units + size - 1) / size <= 65);
  }
  CHECK(default_units_per_chunk(10'000'000) == 4096);
}

TEST_CASE("an assembly schedule needs more than 64 colors when 70 units share one unknown") {
  std::vector<std::vector<Index>> dofs(70);
  for (std::size_t u = 0; u < dofs.size(); ++u) dofs[u] = {0, static_cast<Index>(u) + 1};
  const AssemblySchedule s = make_assembly_schedule(
      71, 70, [&](Index u) { return std::span<const Index>(dofs[static_cast<std::size_t>(u)]); }, 1);
  CHECK(s.num_colors() == 70);
  CHECK_THROWS_AS(make_assembly_schedule(71, 70, [&](Index u) { return std::span<const Index>(dofs[static_cast<std::size_t>(u)]); }, 0),
                  std::invalid_argument);
}

TEST_CASE("the largest contributor to a residual row is the unit that wrote the largest value") {
  const std::vector<UnitLayout> layouts{{{0, 1}, {}}, {{1, 2}, {}}, {{1}, {}}};
  Assembler assembler{AssemblyPlan(4, layouts)};
  Vector residual(4);
  std::vector<double> written{1.0, -2.0, 5.0, 1.0, 3.0};  // unit 0: rows 0,1; unit 1: rows 1,2; unit 2: row 1
  auto eval = [&](Index u, UnitOutput& out) {
    const std::size_t first = u == 0 ? 0 : u == 1 ? 2 : 4;
    for (Index i = 0; i < out.residual().size(); ++i) out.residual()(i) = written[first + static_cast<std::size_t>(i)];
  };
  assembler.assemble(eval, residual, false);
  CHECK(residual(1) == -2.0 + 5.0 + 3.0);
  CHECK(assembler.largest_contributor(eval, 1) == 1);
  CHECK(assembler.largest_contributor(eval, 0) == 0);
  CHECK(assembler.largest_contributor(eval, 3) == -1);
  written[4] = std::nan("");  // a NaN contribution is named, whatever its neighbours
  CHECK(assembler.largest_contributor(eval, 1) == 2);
}

TEST_CASE("the scale of each row sums max(|unit residual|, unit scale) over the units, from |start|, on any thread count") {
  const Index n = 300;
  const auto layouts = overlapping_units(n, 2000);
  // Even units declare a scale for their first local entry: 10 |entry| (a difference of larger
  // terms); odd units declare 0, so their |entry| counts.
  const auto fill_with_scale = [](Index u, UnitOutput& out) {
    fill(u, out);
    if (u % 2 == 0) out.scale()(0) = 10.0 * std::abs(out.residual()(0));
  };
  Vector start(n);
  for (Index i = 0; i < n; ++i) start(i) = 1e2 * std::cos(0.7 * i);
  Vector reference = start.cwiseAbs();
  for (Index u = 0; u < static_cast<Index>(layouts.size()); ++u) {
    const UnitLayout& l = layouts[static_cast<std::size_t>(u)];
    for (std::size_t i = 0; i < l.dofs.size(); ++i) {
      const double magnitude = std::abs(unit_value(u, static_cast<Index>(i)));
      reference(l.dofs[i]) += (i == 0 && u % 2 == 0) ? 10.0 * magnitude : magnitude;
    }
  }
  auto run = [&](int threads) {
    Assembler assembler{AssemblyPlan(n, layouts)};
    Vector residual(n), scale = Vector::Constant(n, std::nan("")), floor = scale;
    tbb::task_arena(threads).execute([&] { assembler.assemble(fill_with_scale, start, residual, scale, floor, true); });
    CHECK(floor == Vector::Zero(n));  // no unit declares a floor
    return scale;
  };
  const Vector one = run(1);
  CHECK((one - reference).cwiseAbs().maxCoeff() <= 1e-9 * reference.maxCoeff());
  for (int threads : {2, 8}) {
    CAPTURE(threads);
    const Vector scale = run(threads);
    CHECK(std::memcmp(scale.data(), one.data(), sizeof(double) * static_cast<std::size_t>(n)) == 0);
  }
}
