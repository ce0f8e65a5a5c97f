#pragma once
/// MUMPS, the distributed multifrontal sparse LU, through PETSc. Built when PETSc is found (NOETHER_WITH_PETSC, docs/distributed.md); this header names no PETSc or MPI type, so
/// that code using the back-end through LinearSolver needs neither's headers.
#include <memory>
#include <span>

#include <noether/engine/distribution.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// A PETSc back-end of kind mumps (std::invalid_argument for another kind) on one
/// process (MPI's PETSC_COMM_SELF), with no pattern analyzed yet. The first one made in a process
/// starts PETSc (and MPI, unless the program started it), ignoring the command line and PETSc's
/// option files but reading the PETSC_OPTIONS environment variable (-mat_mumps_icntl_14 200, for
/// example), without PETSc's signal handlers; PETSc ends at exit. Throws LinearSolverError when
/// PETSc cannot start.
///
/// Phases as LinearSolver: analyze_pattern lays out PETSc's matrix from the pattern's entries
/// (MatSetPreallocationCOO) once; the first factorize after it, or after forget_factorization,
/// runs MUMPS's analysis (ordering, and a scaling and row permutation chosen from that matrix's
/// values) and factors; later ones set the values (MatSetValuesCOO) and factor
/// numerically on that analysis. A singular matrix is a failed status naming MUMPS's INFOG(1)
/// (-10: numerically singular; -6 at the analysis: structurally singular); PETSc's own errors are LinearSolverError with PETSc's message, never printed by PETSc.
/// PETSc's state is process-wide and not thread-safe: the PETSc back-ends of a process take turns
/// (a lock around each phase).
///
/// ordering: automatic, or in one process nested_dissection (METIS's, given to MUMPS); automatic
/// gives MUMPS the nested dissection in one process where its own analysis predicts wide fronts
/// (petsc_lu_solver.cpp, analyse). Another ordering, or nested_dissection over several processes,
/// throws LinearSolverError saying what to give instead.
///
/// processes (engine/distribution.hpp; nullptr or one process: PETSC_COMM_SELF): the processes of
/// MPI_COMM_WORLD, each giving analyze_pattern and factorize its part of the matrix (any entries,
/// on any rows; PETSc sums the parts) and solve the whole right side, the same on every process;
/// each owns a contiguous run of the rows [r n / R, (r + 1) n / R), and every process gets the
/// whole solution. Every phase is then collective. global_numbers (over parts, several processes
/// only: UnknownPlacement): each process gives its part's matrix in its own numbering, each local
/// unknown's number in the whole system here; its right side and solution are its part's (a row
/// several processes hold has the whole system's value on each).
std::unique_ptr<LinearSolver> make_petsc_lu_solver(LinearSolverKind kind, const Distribution* processes = nullptr,
                                                   FillOrdering ordering = FillOrdering::automatic,
                                                   std::span<const Index> global_numbers = {});

}  // namespace noether
