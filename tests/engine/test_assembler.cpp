#include <cstring>
#include <random>

#include <doctest/doctest.h>
#include <tbb/task_arena.h>

#include "engine/assembler.hpp"
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

}  // namespace

TEST_CASE("assembly equals a dense reference sum") {
  const Index n = 40;
  const auto layouts = overlapping_units(n, 60);
  Assembler assembler{AssemblyPlan(n, layouts)};
  Vector residual(n);
  std::vector<double> values(static_cast<std::size_t>(assembler.pattern().nnz()));
  assembler.assemble(fill, residual, values);

  Matrix dense_reference = Matrix::Zero(n, n);
  Vector residual_reference = Vector::Zero(n);
  for (Index u = 0; u < static_cast<Index>(layouts.size()); ++u) {
    const UnitLayout& l = layouts[static_cast<std::size_t>(u)];
    for (std::size_t i = 0; i < l.dofs.size(); ++i) residual_reference(l.dofs[i]) += unit_value(u, static_cast<Index>(i));
    for (std::size_t k = 0; k < l.blocks.size(); ++k) {
      const LocalBlock& b = l.blocks[k];
      for (Index j = 0; j < b.cols; ++j)
        for (Index i = 0; i < b.rows; ++i)
          dense_reference(l.dofs[static_cast<std::size_t>(b.row_begin + i)], l.dofs[static_cast<std::size_t>(b.col_begin + j)]) +=
              unit_value(u, 10 * static_cast<Index>(k) + 3 * j + i);
    }
  }
  Matrix dense = Matrix::Zero(n, n);
  const CscPattern& p = assembler.pattern();
  for (Index j = 0; j < n; ++j)
    for (Index k = p.column_starts[static_cast<std::size_t>(j)]; k < p.column_starts[static_cast<std::size_t>(j) + 1]; ++k)
      dense(p.row_indices[static_cast<std::size_t>(k)], j) = values[static_cast<std::size_t>(k)];
  CHECK((dense - dense_reference).cwiseAbs().maxCoeff() <= 1e-9);
  CHECK((residual - residual_reference).cwiseAbs().maxCoeff() <= 1e-9);
  for (Index i = 0; i < n; ++i) CHECK(p.find(i, i) >= 0);  // diagonal always structural
}

TEST_CASE("assembly is bitwise identical with 1, 2 and 8 threads") {
  const Index n = 500;
  const auto layouts = overlapping_units(n, 4000);
  Assembler assembler{AssemblyPlan(n, layouts)};
  auto run = [&](int threads) {
    Vector residual(n);
    std::vector<double> values(static_cast<std::size_t>(assembler.pattern().nnz()));
    tbb::task_arena arena(threads);
    arena.execute([&] { assembler.assemble(fill, residual, values); });
    return std::pair{residual, values};
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
