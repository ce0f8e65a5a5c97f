#pragma once
/// The one place that knows every linear back-end: makes one by kind.
#include <memory>
#include <string>

#include <noether/engine/distribution.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// Whether this build has the back-end: all but mumps always; mumps when Noether was built with
/// PETSc (the CMake option NOETHER_WITH_PETSC, docs/distributed.md).
bool linear_solver_built(LinearSolverKind kind);

/// What a build without PETSc says of the PETSc back-end (mumps): that it needs PETSc,
/// and how to get it (the Debian package, the CMake option). std::logic_error for another kind,
/// which every build has.
std::string linear_solver_missing_message(LinearSolverKind kind);

/// A new back-end of the given kind, with no pattern analyzed yet, factoring in `ordering` (KLU
/// and UMFPACK). processes: the processes whose matrix parts it is to sum and factor together
/// (engine/distribution.hpp), nullptr for one process. Throws LinearSolverError for an ordering
/// other than automatic with a back-end that orders by its own rules (CHOLMOD, Eigen, MUMPS), and
/// with linear_solver_missing_message for a back-end this build does not have;
/// std::invalid_argument, naming it and what to use instead, for a back-end that factors in one
/// process alone given several.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind,
                                                 FillOrdering ordering = FillOrdering::automatic,
                                                 const Distribution* processes = nullptr);

/// Throws LinearSolverError, naming both, unless `kind` takes `ordering` (make_linear_solver).
void require_ordering_supported(LinearSolverKind kind, FillOrdering ordering);

}  // namespace noether
