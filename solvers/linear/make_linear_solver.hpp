#pragma once
/// The one place that knows every linear back-end: makes one by kind.
#include <memory>
#include <span>
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

/// The largest interface, in unknowns per cut between two processes, for which the automatic
/// choice over several processes takes schur: a few bodies' coordinates and rows (a 3D director
/// body: 12 and 6), which a chain or a tree cut between two runs of bodies shares; a grid's cut
/// shares a row of bodies, and goes to mumps.
inline constexpr Index kSchurInterfacePerCut = 64;

/// A new back-end of the given kind, with no pattern analyzed yet, factoring in `ordering` (KLU,
/// UMFPACK, and the back-ends made of them: schur, auto). processes: the processes whose matrix
/// parts it is to sum and factor together (engine/distribution.hpp), nullptr for one process;
/// placement: where the unknowns lie among those parts (divide_unknowns; read by schur and
/// auto over several processes, copied); over parts (placement.global_numbers) schur and mumps
/// take each process's part of the vectors. automatic is, in one process, AutoSolver (KLU or UMFPACK
/// by the first matrix), over several, schur where the interface has at most
/// kSchurInterfacePerCut unknowns per cut and mumps otherwise (schur in a build without mumps).
/// Throws LinearSolverError for an ordering other than automatic with a back-end that orders by
/// its own rules (CHOLMOD, Eigen, MUMPS), and with linear_solver_missing_message for a back-end
/// this build does not have; std::invalid_argument, naming it and what to use instead, for a
/// back-end that factors in one process alone given several, and for schur or auto over several
/// processes without the unknowns' owners.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind,
                                                 FillOrdering ordering = FillOrdering::automatic,
                                                 const Distribution* processes = nullptr,
                                                 UnknownPlacement placement = {});

/// Throws LinearSolverError, naming both, unless `kind` takes `ordering` (make_linear_solver).
void require_ordering_supported(LinearSolverKind kind, FillOrdering ordering);

}  // namespace noether
