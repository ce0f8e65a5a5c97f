#pragma once
/// The benchmark bodies: each builds its mechanism and solver outside the timed loop and reports
/// user counters (seconds are wall-clock; "per step" counters are means over the timed steps).
#include <string>

#include <benchmark/benchmark.h>

#include "cases.hpp"

namespace noether::bench {

/// Time step of every stepping benchmark (the scenarios' default).
constexpr double kTimeStep = 0.01;

struct StepCase {
  MechanismKind mechanism = MechanismKind::chain3d;
  Index size = 100;
  std::string stepper = "livens-em";
  Backend backend = kDefaultBackend;
  bool modified_newton = false;
  int threads = 1;
};

/// "step/<stepper>/<mechanism>/<n|k>:<size>/<backend>/<full|modified>/threads:<t>"
std::string benchmark_name(const StepCase& c);

/// Every size times the same stretch of motion: the kTimedStepsPerRelease steps that follow the
/// first step after the release (which is untimed: it holds the first numeric factorization), so
/// that t(8n)/t(n) compares like with like. A benchmark of more timed steps (small systems, for
/// the timer's resolution) releases the mechanism again after each stretch, untimed.
constexpr int kTimedStepsPerRelease = 3;

/// Times steps (one benchmark iteration = one step; kTimedStepsPerRelease per release). Counters:
/// n (size), bodies, unknowns, nnz, threads; per step: step_s, assembly_s, factorization_s,
/// solve_s, newton_iterations, factorizations, and the fastest timed step and step assembly
/// (step_min_s, assembly_min_s: less sensitive to other load on the machine); per Newton iteration: iteration_s and the phases
/// assembly_per_iteration_s, factorization_per_iteration_s, solve_per_iteration_s; one-time:
/// setup_s (stepper construction: assembly plan + pattern analysis), analysis_s (analyze_pattern
/// alone), analyses (calls to it, over setup and all steps), first_factorization_s (the first
/// numeric factorization); refactorization_s (mean numeric factorization in the timed steps);
/// klu_refactor_fraction (KLU only: share of the timed steps' factorizations done by klu_refactor);
/// residual_tolerance (Newton's default, on the scaled residual: the same for every size).
void run_step(benchmark::State& bench, const StepCase& c);

/// "identical/<stepper>/<mechanism>/<n|k>:<size>/<backend>": `steps` steps with 1 and with 2
/// threads from the same initial state. Counter identical = 1 when every factorized matrix and the
/// final (q, v, p, lambda) agree bitwise, else 0.
std::string identical_name(const StepCase& c);
void run_identical(benchmark::State& bench, const StepCase& c, int steps);

/// "threads/<stepper>/<mechanism>/<n|k>:<size>/<backend>": one stepper, steps taken alternately
/// on 1 and on 2 threads (one benchmark iteration = one such pair), so that both thread counts
/// see the same machine load. Counters: assembly_1_s, assembly_2_s (fastest assembly of one
/// Newton evaluation, assembly per step / (iterations + 1), on 1 and on 2 threads), speedup (their
/// ratio), speedup_median (median over the pairs of the ratio of the pair's two assemblies),
/// step_speedup_median (the same for whole steps), pairs.
std::string threads_name(const StepCase& c);
void run_threads(benchmark::State& bench, const StepCase& c);

/// "memory/<stepper>/<mechanism>/<n|k>:<size>/<backend>": resident memory added by building the
/// mechanism and the stepper and taking one step. Counters: peak_bytes_per_body (VmHWM after,
/// minus VmRSS before, per body), resident_bytes_per_body (VmRSS after minus before),
/// peak_reset (1 when the kernel reset VmHWM before the measurement, else the peak may be older).
std::string memory_name(const StepCase& c);
void run_memory(benchmark::State& bench, const StepCase& c);

/// "floor/<mechanism>/n:<n>": the dense block-tridiagonal floor (block_tridiagonal_floor.hpp) with
/// n blocks of the mechanism's per-body size. One benchmark iteration = one factorization + solve.
/// Counters: n, block_size, floor_s.
std::string floor_name(MechanismKind mechanism, Index size);
void run_floor(benchmark::State& bench, MechanismKind mechanism, Index size);

/// "projection/<mechanism>/<n|k>:<size>/<backend>": projecting perturbed initial positions onto
/// g(q) = 0 with the SPD matrix G G^T (solvers/projection.hpp). One iteration = one projection.
/// Counters: constraints (rows of G), nnz (of G G^T as the backend stores it), analysis_s
/// (projector construction: pattern + analysis), projection_s, iterations, factorizations.
std::string projection_name(MechanismKind mechanism, Index size, Backend backend);
void run_projection(benchmark::State& bench, MechanismKind mechanism, Index size, Backend backend);

}  // namespace noether::bench
