#include "suites.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "step_benchmarks.hpp"

namespace noether::bench {
namespace {

using M = MechanismKind;

/// Timed repetitions for a system of about `unknowns` Newton unknowns: enough for small systems
/// to average out timer noise, at least 3 for the largest.
benchmark::IterationCount repetitions(double unknowns, double budget = 3e5) {
  return std::clamp<benchmark::IterationCount>(std::lround(budget / unknowns), 3, 100);
}

/// False when a benchmark of that name was registered before (the suites' lists overlap at their
/// small sizes, so each case is registered once).
bool first_registration(const std::string& name) {
  static std::set<std::string> registered;
  return registered.insert(name).second;
}

/// Timed steps of a step benchmark: repetitions(...) rounded up to whole stretches of
/// kTimedStepsPerRelease steps (run_step).
benchmark::IterationCount timed_steps(const StepCase& c) {
  const benchmark::IterationCount stretch = kTimedStepsPerRelease;
  return (repetitions(estimated_unknowns(c.mechanism, c.size)) + stretch - 1) / stretch * stretch;
}

void add_step(const StepCase& c) {
  if (!first_registration(benchmark_name(c))) return;
  benchmark::RegisterBenchmark(benchmark_name(c).c_str(), [c](benchmark::State& s) { run_step(s, c); })
      ->Iterations(timed_steps(c))
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void add_identical(const StepCase& c, int steps) {
  benchmark::RegisterBenchmark(identical_name(c).c_str(), [c, steps](benchmark::State& s) { run_identical(s, c, steps); })
      ->Iterations(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

/// At least 12 pairs, up to 100 for small systems: the target reads the fastest step of each thread
/// count, and on a shared machine a few pairs of short steps can all fall into one disturbed
/// second (an example with 7 pairs: docs/notebook.md, 'Figures moved from code comments').
void add_threads(const StepCase& c) {
  if (!first_registration(threads_name(c))) return;
  const benchmark::IterationCount pairs = std::max<benchmark::IterationCount>(
      12, repetitions(estimated_unknowns(c.mechanism, c.size), 3e6));
  benchmark::RegisterBenchmark(threads_name(c).c_str(), [c](benchmark::State& s) { run_threads(s, c); })
      ->Iterations(pairs)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void add_memory(const StepCase& c) {
  benchmark::RegisterBenchmark(memory_name(c).c_str(), [c](benchmark::State& s) { run_memory(s, c); })
      ->Iterations(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void add_floor(M mechanism, Index n) {
  benchmark::RegisterBenchmark(floor_name(mechanism, n).c_str(),
                               [mechanism, n](benchmark::State& s) { run_floor(s, mechanism, n); })
      ->Iterations(repetitions(estimated_unknowns(mechanism, n), 3e6))
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void add_projection(M mechanism, Index size, Backend backend) {
  benchmark::RegisterBenchmark(projection_name(mechanism, size, backend).c_str(),
                               [=](benchmark::State& s) { run_projection(s, mechanism, size, backend); })
      ->Iterations(repetitions(estimated_unknowns(mechanism, size)))
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

struct Sizes {
  std::vector<Index> chain2d, chain3d, chain3d_revolute, nfourbar, grid2d, memory, floor;
};

/// Chain and nfourbar sizes step by 8 (100, 800, 6400, 51200), so the linear-cost target
/// t(8n)/t(n) reads directly off neighbours; the full suite adds the pairs (12500, 1e5) and
/// (125000, 1e6) for the planar chain.
Sizes sizes_of(Suite suite) {
  switch (suite) {
    case Suite::quick: return {{100, 800}, {100, 800}, {100}, {100, 800}, {10}, {1000}, {100, 800}};
    case Suite::standard:
      return {{100, 800, 6400, 51200}, {100, 800, 6400, 51200}, {100, 800, 6400}, {100, 800, 6400},
              {12, 25, 50},           {1000, 10000},          {100, 800, 6400, 51200}};
    case Suite::full:
      return {{100, 800, 6400, 12500, 51200, 100000, 125000, 1000000},
              {100, 800, 6400, 12500, 51200, 100000},
              {100, 800, 6400, 51200},
              {100, 800, 1250, 6400, 10000},
              {12, 25, 50, 100},
              {1000, 10000, 100000},
              {100, 800, 6400, 12500, 51200, 100000}};
  }
  return {};
}

}  // namespace

std::optional<Suite> parse_suite(std::string_view name) {
  if (name == "quick") return Suite::quick;
  if (name == "default") return Suite::standard;
  if (name == "full") return Suite::full;
  return std::nullopt;
}

void register_suite(Suite suite) {
  const Sizes sizes = sizes_of(suite);
  const bool quick = suite == Suite::quick;

  // Memory first, while the heap is fresh: after large runs, the allocator's retained and
  // fragmented memory blurs the VmRSS / VmHWM differences of small cases (so the sizes ascend). The
  // default backend (KLU), and UMFPACK's automatic strategy for comparison.
  for (Index n : sizes.memory)
    for (Backend b : {kDefaultBackend, kComparisonBackend})
      add_memory({.mechanism = M::chain3d, .size = n, .backend = b});
  for (Backend b : {kDefaultBackend, kComparisonBackend})
    add_memory({.mechanism = M::chain2d, .size = quick ? 1000 : 10000, .backend = b});

  // Scaling: the default configuration (livens-em, KLU, full Newton, 1 thread), each size followed
  // by the same run with UMFPACK's automatic strategy (the report's comparison column) up to
  // 51 200 bodies: beyond, UMFPACK's steps take minutes (chain2d 1e6) and say nothing new.
  constexpr Index largest_comparison = 51200;
  for (auto [mechanism, list] : {std::pair{M::chain2d, sizes.chain2d}, std::pair{M::chain3d, sizes.chain3d},
                                 std::pair{M::chain3d_revolute, sizes.chain3d_revolute},
                                 std::pair{M::nfourbar, sizes.nfourbar}, std::pair{M::grid2d, sizes.grid2d}})
    for (Index size : list)
      for (Backend b : {kDefaultBackend, kComparisonBackend})
        if (b == kDefaultBackend || size <= largest_comparison)
          add_step({.mechanism = mechanism, .size = size, .backend = b});

  // Every LU backend, full and modified Newton, on a mid-size 3D chain and grid (the full-Newton
  // KLU and UMFPACK runs are the scaling runs of that size).
  const Index chain = quick ? 800 : 6400, grid = quick ? 10 : 25;
  for (auto [mechanism, size] : {std::pair{M::chain3d, chain}, std::pair{M::grid2d, grid}}) {
    for (Backend b : {Backend::klu, Backend::umfpack, Backend::umfpack_symmetric, Backend::umfpack_unsymmetric,
                      Backend::eigen})
      add_step({.mechanism = mechanism, .size = size, .backend = b});
    for (Backend b : {Backend::klu, Backend::umfpack})
      add_step({.mechanism = mechanism, .size = size, .backend = b, .modified_newton = true});
  }

  // Orderings (docs/performance.md, 'Nested-dissection orderings'): KLU under each ordering alone
  // and UMFPACK with and without nested dissection, beside the automatic choices (klu, umfpack), on
  // grids, where nested dissection pays, and on chains and the N-four-bar, where it must not be
  // chosen; the full suite adds grid2d k = 100 (2 s per KLU factorization). KLU's AMD is left out
  // from k = 60 on: its pivoting off the diagonal there takes over ten times COLAMD's flops (k = 20:
  // 14 times), minutes per step that would say nothing new.
  std::vector<std::pair<M, Index>> ordered{{M::grid2d, 10}, {M::grid2d, 20}, {M::chain3d, 800}};
  if (!quick)
    ordered = {{M::grid2d, 20}, {M::grid2d, 60}, {M::chain2d, 6400}, {M::chain3d, 6400}, {M::nfourbar, 6400}};
  if (suite == Suite::full) ordered.emplace_back(M::grid2d, 100);
  for (auto [mechanism, size] : ordered)
    for (Backend b : {Backend::klu, Backend::klu_colamd, Backend::klu_amd, Backend::klu_nd, Backend::umfpack,
                      Backend::umfpack_nd})
      if (b != Backend::klu_amd || mechanism != M::grid2d || size < 60)
        add_step({.mechanism = mechanism, .size = size, .backend = b});

  // Other steppers on a short 3D chain (ggl-vi's Newton does not converge at h = 0.01 for n = 800);
  // em-ggl also on the short planar chain and N-four-bar, beside livens-em's runs of those sizes
  // (docs/notebook.md, "em-ggl against livens-em").
  for (const char* stepper : {"em-ggl", "ggl-vi"}) add_step({.mechanism = M::chain3d, .size = 100, .stepper = stepper});
  for (M mechanism : {M::chain2d, M::nfourbar}) add_step({.mechanism = mechanism, .size = 100, .stepper = "em-ggl"});

  // Threads: steps alternately on 1 and 2 threads (default backend).
  const Index big_chain = quick ? 800 : 51200, big_grid = quick ? 10 : 50;
  for (auto [mechanism, size] : {std::pair{M::chain3d, chain}, std::pair{M::chain3d, big_chain},
                                 std::pair{M::chain2d, big_chain}, std::pair{M::grid2d, big_grid}})
    add_threads({.mechanism = mechanism, .size = size});
  add_identical({.mechanism = M::chain3d, .size = chain}, 3);
  add_identical({.mechanism = M::grid2d, .size = grid}, 3);

  for (Index n : sizes.floor) add_floor(M::chain3d, n);
  add_floor(M::chain3d_revolute, chain);

  // The SPD projection G G^T: CHOLMOD against the LU backends.
  for (Backend b : {Backend::cholmod, Backend::umfpack, Backend::klu, Backend::eigen})
    add_projection(M::chain3d, chain, b);
  add_projection(M::grid2d, grid, Backend::cholmod);
}

}  // namespace noether::bench
