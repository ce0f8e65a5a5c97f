#include "step_benchmarks.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include <tbb/global_control.h>

#include "block_tridiagonal_floor.hpp"
#include <noether/apps/mechanisms/memory_budget.hpp>
#include "process_memory.hpp"
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string size_label(MechanismKind mechanism, Index size) {
  return std::string(size_name(mechanism)) + ":" + std::to_string(size);
}

std::string case_prefix(const std::string& family, const StepCase& c) {
  return family + "/" + c.stepper + "/" + std::string(to_string(c.mechanism)) + "/" + size_label(c.mechanism, c.size) +
         "/" + std::string(to_string(c.backend));
}

/// An ordering as a number (a counter): 0 COLAMD, 1 the given order, 2 CHOLMOD's nested dissection
/// of A^T A, 3 AMD, 4 METIS's nested dissection of A + A^T (FactorizationProfile::ordering's names).
/// benchmarks/report maps the codes back to names; -1 when none was reported (KLU ordered no
/// block, all tiny; or the backend does not say).
double ordering_code(const std::string& method) {
  if (method == "colamd") return 0;
  if (method == "given") return 1;
  if (method == "nested dissection") return 2;
  if (method == "amd") return 3;
  if (method == "nd") return 4;
  return -1;
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

/// A mechanism with its stepper, built as every benchmark builds them.
struct SteppingRun {
  Mechanism mechanism;
  SolverRecord record;
  std::unique_ptr<Stepper> stepper;
  State state;
  double setup_seconds = 0.0;

  SteppingRun(const StepCase& c, bool hash_values) : mechanism(make_mechanism(c.mechanism, c.size)) {
    record.hash_values = hash_values;
    const StepperInfo& info = find_stepper(c.stepper);
    NewtonOptions newton;
    newton.modified = c.modified_newton;
    const StepperOptions options = instrumented_options(c.backend, newton, record);
    const auto start = Clock::now();
    stepper = info.make(mechanism.system(), options);
    setup_seconds = seconds_since(start);
    state = mechanism.initial_state();
    stepper->initialize(state);
  }
  Index bodies() const { return static_cast<Index>(mechanism.bodies().size()); }
  /// Back to the initial state, then the first step from it (the stepper keeps its solver, so no
  /// pattern is analysed again).
  void release() {
    state = mechanism.initial_state();
    stepper->initialize(state);
    stepper->step(state, kTimeStep);
  }
};

std::uint64_t hash_state(const State& s, std::uint64_t hash) {
  for (const Vector* v : {&s.q, &s.v, &s.p, &s.lambda})
    hash = hash_bytes(std::span<const double>(v->data(), static_cast<std::size_t>(v->size())), hash);
  return hash;
}

void report_error(benchmark::State& bench, const std::exception& e) { bench.SkipWithError(e.what()); }

/// Throws std::runtime_error ("skipped: ...") when building and stepping the case would likely
/// need more than 80 % of the memory available now.
void require_memory_for(const StepCase& c) {
  try {
    require_memory_for_bars(estimated_bodies(c.mechanism, c.size), estimated_peak_bytes_per_body(c.mechanism),
                            std::string(to_string(c.mechanism)) + " of size " + std::to_string(c.size));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("skipped: ") + e.what());
  }
}

/// What the first, untimed step left: its (fresh) numeric factorization.
struct StepBaseline {
  explicit StepBaseline(const SolverRecord& record)
      : first_factorization(record.factorization_seconds.empty() ? 0.0 : record.factorization_seconds.front()),
        klu(dynamic_cast<const KluSolver*>(record.inner)) {}
  double first_factorization;
  const KluSolver* klu;  ///< the backend when it is KLU
};

/// Sums over the timed steps.
struct StepTotals {
  NewtonTimings phases;
  double steps = 0, iterations = 0, factorizations = 0, wall = 0, klu_refactorizations = 0;
  double fastest_step = std::numeric_limits<double>::infinity(), fastest_assembly = fastest_step;
  std::vector<double> factorization_seconds;  ///< each numeric factorization of the timed steps

  void add(const NewtonReport& report, double seconds) {
    wall += seconds;
    fastest_step = std::min(fastest_step, seconds);
    fastest_assembly = std::min(fastest_assembly, report.timings.assembly);
    phases.assembly += report.timings.assembly;
    phases.factorization += report.timings.factorization;
    phases.solve += report.timings.solve;
    iterations += report.iterations;
    factorizations += report.factorizations;
    steps += 1;
  }
};

/// One timed step of run, added to totals with the factorizations it made.
void take_timed_step(SteppingRun& run, const StepBaseline& base, StepTotals& totals) {
  const std::size_t factorizations_before = run.record.factorization_seconds.size();
  const int klu_before = base.klu ? base.klu->refactorizations() : 0;
  const auto start = Clock::now();
  const NewtonReport report = run.stepper->step(run.state, kTimeStep);
  totals.add(report, seconds_since(start));
  const auto& all = run.record.factorization_seconds;
  totals.factorization_seconds.insert(totals.factorization_seconds.end(),
                                      all.begin() + static_cast<std::ptrdiff_t>(factorizations_before), all.end());
  if (base.klu) totals.klu_refactorizations += base.klu->refactorizations() - klu_before;
}

void set_step_counters(benchmark::State& bench, const StepCase& c, const SteppingRun& run, const StepBaseline& base,
                       const StepTotals& t) {
  const double per_iteration = t.iterations > 0 ? 1.0 / t.iterations : 0.0;
  auto& k = bench.counters;
  k["n"] = c.size;
  k["bodies"] = run.bodies();
  k["unknowns"] = run.record.n;
  k["nnz"] = run.record.nnz;
  k["threads"] = c.threads;
  k["step_s"] = t.wall / t.steps;
  k["assembly_s"] = t.phases.assembly / t.steps;
  k["factorization_s"] = t.phases.factorization / t.steps;
  k["solve_s"] = t.phases.solve / t.steps;
  k["step_min_s"] = t.fastest_step;
  k["assembly_min_s"] = t.fastest_assembly;
  k["newton_iterations"] = t.iterations / t.steps;
  k["factorizations"] = t.factorizations / t.steps;
  k["iteration_s"] = t.wall * per_iteration;
  k["assembly_per_iteration_s"] = t.phases.assembly * per_iteration;
  k["factorization_per_iteration_s"] = t.phases.factorization * per_iteration;
  k["solve_per_iteration_s"] = t.phases.solve * per_iteration;
  k["residual_tolerance"] = NewtonOptions{}.residual_tolerance;
  k["setup_s"] = run.setup_seconds;
  k["analysis_s"] = run.record.analysis_seconds;
  k["analyses"] = run.record.analyses;
  k["first_factorization_s"] = base.first_factorization;
  k["refactorization_s"] = mean(t.factorization_seconds);
  if (base.klu && t.factorizations > 0) k["klu_refactor_fraction"] = t.klu_refactorizations / t.factorizations;
  if (base.klu) k["klu_ordering"] = ordering_code(base.klu->ordering().method);
  if (base.klu) k["lu_nnz"] = base.klu->factor_entries();
  // The ordering chosen, and its first factorization's fill and flops, for every LU backend.
  const FactorizationProfile profile = run.stepper->factorization_profile();
  k["ordering"] = ordering_code(profile.ordering);
  if (profile.factor_entries > 0) k["factor_entries"] = profile.factor_entries;
  if (std::isfinite(profile.flops)) k["factor_flops"] = profile.flops;
}

}  // namespace

std::string benchmark_name(const StepCase& c) {
  return case_prefix("step", c) + (c.modified_newton ? "/modified" : "/full") + "/threads:" + std::to_string(c.threads);
}

void run_step(benchmark::State& bench, const StepCase& c) {
  try {
    require_memory_for(c);
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(c.threads));
    SteppingRun run(c, false);
    run.stepper->step(run.state, kTimeStep);  // untimed: holds the first numeric factorization
    const StepBaseline baseline(run.record);
    StepTotals totals;
    int timed_since_release = 0;
    for (auto _ : bench) {
      if (timed_since_release == kTimedStepsPerRelease) {
        bench.PauseTiming();
        run.release();
        timed_since_release = 0;
        bench.ResumeTiming();
      }
      take_timed_step(run, baseline, totals);
      ++timed_since_release;
    }
    if (totals.steps > 0) set_step_counters(bench, c, run, baseline, totals);
  } catch (const std::exception& e) {
    report_error(bench, e);
  }
}

std::string identical_name(const StepCase& c) { return case_prefix("identical", c); }

void run_identical(benchmark::State& bench, const StepCase& c, int steps) {
  try {
    for (auto _ : bench) {
      std::uint64_t hashes[2] = {0, 0};
      for (int t : {1, 2}) {
        tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(t));
        SteppingRun run(c, true);
        for (int s = 0; s < steps; ++s) run.stepper->step(run.state, kTimeStep);
        hashes[t - 1] = hash_state(run.state, run.record.values_hash);
      }
      bench.counters["identical"] = hashes[0] == hashes[1] ? 1 : 0;
      bench.counters["steps"] = steps;
      bench.counters["n"] = c.size;
    }
  } catch (const std::exception& e) {
    report_error(bench, e);
  }
}

std::string threads_name(const StepCase& c) { return case_prefix("threads", c); }

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 == 1 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

/// Step with at most `threads` threads; returns (seconds of one assembly, seconds of the step).
std::pair<double, double> timed_step(SteppingRun& run, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const auto start = Clock::now();
  const NewtonReport report = run.stepper->step(run.state, kTimeStep);
  return {report.timings.assembly / (report.iterations + 1), seconds_since(start)};
}

}  // namespace

void run_threads(benchmark::State& bench, const StepCase& c) {
  try {
    require_memory_for(c);
    SteppingRun run(c, false);
    run.stepper->step(run.state, kTimeStep);  // untimed: the first factorization, the constant blocks
    double fastest[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    std::vector<double> assembly_ratios, step_ratios;
    for (auto _ : bench) {
      const auto [assembly_1, step_1] = timed_step(run, 1);
      const auto [assembly_2, step_2] = timed_step(run, 2);
      fastest[0] = std::min(fastest[0], assembly_1);
      fastest[1] = std::min(fastest[1], assembly_2);
      assembly_ratios.push_back(assembly_1 / assembly_2);
      step_ratios.push_back(step_1 / step_2);
    }
    if (assembly_ratios.empty()) return;
    auto& k = bench.counters;
    k["n"] = c.size;
    k["assembly_1_s"] = fastest[0];
    k["assembly_2_s"] = fastest[1];
    k["speedup"] = fastest[0] / fastest[1];
    k["speedup_median"] = median(assembly_ratios);
    k["step_speedup_median"] = median(step_ratios);
    k["pairs"] = static_cast<double>(assembly_ratios.size());
  } catch (const std::exception& e) {
    report_error(bench, e);
  }
}

std::string memory_name(const StepCase& c) { return case_prefix("memory", c); }

void run_memory(benchmark::State& bench, const StepCase& c) {
  try {
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(c.threads));
    require_memory_for(c);
    for (auto _ : bench) {
      const bool reset = reset_peak_memory();
      const ProcessMemory before = read_process_memory();
      ProcessMemory after;
      Index bodies = 0;
      {
        SteppingRun run(c, false);
        run.stepper->step(run.state, kTimeStep);
        after = read_process_memory();
        bodies = run.bodies();
      }
      const double per_body = 1.0 / bodies;
      bench.counters["n"] = c.size;
      bench.counters["bodies"] = bodies;
      bench.counters["peak_bytes_per_body"] = static_cast<double>(after.peak_bytes - before.resident_bytes) * per_body;
      bench.counters["resident_bytes_per_body"] =
          static_cast<double>(after.resident_bytes - before.resident_bytes) * per_body;
      bench.counters["peak_reset"] = reset ? 1 : 0;
    }
  } catch (const std::exception& e) {
    report_error(bench, e);
  }
}

std::string floor_name(MechanismKind mechanism, Index size) {
  return "floor/" + std::string(to_string(mechanism)) + "/" + size_label(mechanism, size);
}

void run_floor(benchmark::State& bench, MechanismKind mechanism, Index size) {
  try {
    // Unknowns per body from a short chain of the same kind (every body has one joint).
    constexpr Index sample = 4;
    const Mechanism m = make_mechanism(mechanism, sample);
    const Index per_body = (m.system().num_coordinates() + m.system().num_multipliers()) / sample;
    const auto floor = make_block_tridiagonal_floor(size, per_body);
    double seconds = 0, solves = 0;
    for (auto _ : bench) {
      const auto start = Clock::now();
      benchmark::DoNotOptimize(floor->factorize_and_solve());
      seconds += seconds_since(start);
      solves += 1;
    }
    bench.counters["n"] = size;
    bench.counters["block_size"] = per_body;
    bench.counters["floor_s"] = solves > 0 ? seconds / solves : 0.0;
  } catch (const std::exception& e) {
    report_error(bench, e);
  }
}

std::string projection_name(MechanismKind mechanism, Index size, Backend backend) {
  return "projection/" + std::string(to_string(mechanism)) + "/" + size_label(mechanism, size) + "/" +
         std::string(to_string(backend));
}

void run_projection(benchmark::State& bench, MechanismKind mechanism, Index size, Backend backend) {
  try {
    const Mechanism m = make_mechanism(mechanism, size);
    const System& system = m.system();
    ProjectionOptions options;
    options.solver = kind_of(backend);
    const auto start = Clock::now();
    ConstraintProjector projector(system, options);
    const double analysis = seconds_since(start);
    std::mt19937 generator(7);
    std::uniform_real_distribution<double> noise(-1e-6, 1e-6);
    Vector perturbed = m.initial_state().q;
    for (Index i = 0; i < perturbed.size(); ++i) perturbed(i) += noise(generator);
    Vector q;
    double seconds = 0, projections = 0, iterations = 0, factorizations = 0;
    for (auto _ : bench) {
      q = perturbed;
      const auto begin = Clock::now();
      const ProjectionReport report = projector.project_positions(q);
      seconds += seconds_since(begin);
      projections += 1;
      iterations += report.iterations;
      factorizations += report.factorizations;
    }
    if (projections == 0) return;
    bench.counters["n"] = size;
    bench.counters["constraints"] = projector.pattern().n;
    bench.counters["nnz"] = projector.pattern().nnz();
    bench.counters["analysis_s"] = analysis;
    bench.counters["projection_s"] = seconds / projections;
    bench.counters["iterations"] = iterations / projections;
    bench.counters["factorizations"] = factorizations / projections;
  } catch (const std::exception& e) {
    report_error(bench, e);
  }
}

}  // namespace noether::bench
