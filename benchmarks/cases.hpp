#pragma once
/// The mechanisms and linear-solver backends the benchmarks combine, with their names in
/// benchmark names ("step/livens-em/chain3d/n:6400/umfpack-sym/full/threads:1").
#include <memory>
#include <string>
#include <string_view>

#include <noether/bodies/mechanism.hpp>
#include <noether/solvers/linear/linear_solver.hpp>
#include "instrumented_solver.hpp"
#include <noether/steppers/stepper.hpp>

namespace noether::bench {


enum class MechanismKind { chain2d, chain3d, chain3d_revolute, nfourbar, grid2d };

/// "chain2d", "chain3d" (spherical joints), "chain3d-revolute", "nfourbar", "grid2d".
std::string_view to_string(MechanismKind kind);
/// size: bars n for chains and nfourbar (make_bar_lattice(n, 1)), cells per side k for grid2d.
Mechanism make_mechanism(MechanismKind kind, Index size);
/// "n" or "k": what size counts in benchmark names.
std::string_view size_name(MechanismKind kind);
/// Bodies of the mechanism (exact), and its Newton unknowns (about), known before building it:
/// to choose how many steps to time and to guard memory.
double estimated_bodies(MechanismKind kind, Index size);
double estimated_unknowns(MechanismKind kind, Index size);

/// Peak bytes per body of building and stepping (apps/mechanisms/memory_budget.hpp). Guards the
/// largest sizes against exhausting the machine's memory.
double estimated_peak_bytes_per_body(MechanismKind kind);

/// klu: KLU with klu_refactor (the default backend, FillOrdering::automatic); klu-nd, klu-amd,
/// klu-colamd: KLU with that ordering alone; umfpack: UMFPACK's automatic ordering; umfpack-sym /
/// umfpack-unsym: UMFPACK_STRATEGY_SYMMETRIC / _UNSYMMETRIC (the orderings amd, colamd);
/// umfpack-nd: UMFPACK with nested dissection; cholmod (SPD only); eigen (SparseLU).
enum class Backend {
  umfpack,
  umfpack_symmetric,
  umfpack_unsymmetric,
  umfpack_nd,
  klu,
  klu_nd,
  klu_amd,
  klu_colamd,
  cholmod,
  eigen
};

/// The backend of the default configuration (StepperOptions{}.solver): the report evaluates the
/// targets on it.
inline constexpr Backend kDefaultBackend = Backend::klu;
/// UMFPACK's automatic strategy: measured beside the default at every scaling and memory size, so
/// the report can show each target's value with it for comparison.
inline constexpr Backend kComparisonBackend = Backend::umfpack;

std::string_view to_string(Backend backend);
LinearSolverKind kind_of(Backend backend);
std::unique_ptr<LinearSolver> make_backend(Backend backend);

/// Stepper options with `newton` whose Newton solver uses `backend` wrapped in an InstrumentedSolver writing to
/// `record` (which must outlive the stepper).
StepperOptions instrumented_options(Backend backend, const NewtonOptions& newton, SolverRecord& record);

}  // namespace noether::bench
