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

/// A new back-end of the given kind, with no pattern analyzed yet. processes: the processes whose
/// matrix parts it is to sum and factor together (engine/distribution.hpp), nullptr for one
/// process; a back-end that factors in one process alone refuses several (std::invalid_argument
/// naming it and what to use instead). Throws LinearSolverError with
/// linear_solver_missing_message for a back-end this build does not have.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const Distribution* processes = nullptr);

}  // namespace noether
