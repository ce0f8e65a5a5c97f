/// ThreadLimit (engine/thread_limit.hpp): a bound on the worker threads beyond the cores is capped
/// at them, and the assembler makes its per-thread workspaces only for the threads that take part.
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>
#include <tbb/global_control.h>

#include <noether/engine/assembler.hpp>
#include <noether/engine/thread_limit.hpp>

using namespace noether;

namespace {

/// The bound in force: the smallest max_allowed_parallelism of the global controls alive.
std::size_t parallelism() {
  return tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
}

/// The number of per-thread workspaces after 20 assemblies of 4000 units of 3 unknowns each, in
/// chunks that run concurrently (a chain over 8000 unknowns).
std::size_t workspaces_after_assembling() {
  const Index n = 8000;
  std::vector<UnitLayout> layouts;
  for (Index u = 0; u + 3 <= n; u += 2) {
    UnitLayout layout;
    layout.dofs = {u, u + 1, u + 2};
    layout.blocks = {{0, 3, 0, 3}};
    layouts.push_back(layout);
  }
  Assembler assembler{AssemblyPlan(n, layouts)};
  Vector residual(n);
  const auto fill = [](Index, UnitOutput& out) {
    out.residual().array() += 1.0;
    if (out.with_matrix()) out.block(0).array() += 1.0;
  };
  for (int k = 0; k < 20; ++k) assembler.assemble(fill, residual, true);
  return assembler.workspaces();
}

}  // namespace

TEST_CASE("a thread limit beyond the cores is capped at them, and so are the assembler's workspaces") {
  const ThreadLimit limit(std::numeric_limits<int>::max());
  CHECK(limit.threads() == available_threads());
  CHECK(parallelism() == static_cast<std::size_t>(available_threads()));
  const std::size_t workspaces = workspaces_after_assembling();
  CHECK(workspaces >= 1);
  CHECK(workspaces <= static_cast<std::size_t>(limit.threads()));
}

TEST_CASE("a thread limit within the cores is kept, and one below 1 is refused") {
  {
    const ThreadLimit one(1);
    CHECK(one.threads() == 1);
    CHECK(parallelism() == 1);
    CHECK(workspaces_after_assembling() == 1);
  }
  CHECK(capped_threads(available_threads()) == available_threads());
  CHECK_THROWS_WITH_AS(ThreadLimit(0), "the thread limit must be at least 1, got 0", std::invalid_argument);
}
