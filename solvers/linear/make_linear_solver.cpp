#include <noether/solvers/linear/make_linear_solver.hpp>

#include <stdexcept>
#include <string>

#include <noether/solvers/linear/cholmod_solver.hpp>
#include <noether/solvers/linear/eigen_lu_solver.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>
#if NOETHER_WITH_PETSC
#include <noether/solvers/linear/petsc_lu_solver.hpp>
#endif

namespace noether {
namespace {

bool is_petsc_backend(LinearSolverKind kind) { return kind == LinearSolverKind::mumps; }

}  // namespace

bool linear_solver_built(LinearSolverKind kind) { return !is_petsc_backend(kind) || NOETHER_WITH_PETSC; }

std::string linear_solver_missing_message(LinearSolverKind kind) {
  if (!is_petsc_backend(kind))
    throw std::logic_error("linear_solver_missing_message: " + std::string(to_string(kind)) + " is in every build");
  return std::string(to_string(kind)) +
         " is a PETSc back-end, and this Noether was built without PETSc: install the Debian package petsc-dev "
         "(apt-get install petsc-dev, or bash scripts/install_packages.sh petsc-dev), then configure again with "
         "cmake -DNOETHER_WITH_PETSC=ON and rebuild (docs/distributed.md)";
}

void require_ordering_supported(LinearSolverKind kind, FillOrdering ordering) {
  if (ordering == FillOrdering::automatic || kind == LinearSolverKind::klu || kind == LinearSolverKind::umfpack) return;
  throw LinearSolverError("the ordering " + std::string(to_string(ordering)) + " applies to klu and umfpack; " +
                          std::string(to_string(kind)) + " orders by its own rules: leave the ordering at auto");
}

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, FillOrdering ordering,
                                                 const Distribution* processes) {
  require_ordering_supported(kind, ordering);
  if (processes && processes->ranks() > 1 && !is_petsc_backend(kind))
    throw std::invalid_argument("the " + std::string(to_string(kind)) +
                                " solver factors in one process, and this run has " +
                                std::to_string(processes->ranks()) +
                                " processes: a run over several processes needs a distributed solver (--solver mumps)");
  switch (kind) {
    case LinearSolverKind::umfpack: return std::make_unique<UmfpackSolver>(ordering);
    case LinearSolverKind::klu: return std::make_unique<KluSolver>(ordering);
    case LinearSolverKind::cholmod: return std::make_unique<CholmodSolver>();
    case LinearSolverKind::eigen: return std::make_unique<EigenLuSolver>();
    case LinearSolverKind::mumps:
#if NOETHER_WITH_PETSC
      return make_petsc_lu_solver(kind, processes);
#else
      throw LinearSolverError(linear_solver_missing_message(kind));
#endif
  }
  throw LinearSolverError("unknown linear solver kind");
}

}  // namespace noether
