#include <noether/solvers/linear/make_linear_solver.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <noether/solvers/linear/auto_solver.hpp>
#include <noether/solvers/linear/cholmod_solver.hpp>
#include <noether/solvers/linear/eigen_lu_solver.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/schur_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>
#if NOETHER_WITH_PETSC
#include <noether/solvers/linear/petsc_lu_solver.hpp>
#endif

namespace noether {
namespace {

bool is_petsc_backend(LinearSolverKind kind) { return kind == LinearSolverKind::mumps; }

bool several(const Distribution* processes) { return processes && processes->ranks() > 1; }

bool factors_over_processes(LinearSolverKind kind) {
  return is_petsc_backend(kind) || kind == LinearSolverKind::schur || kind == LinearSolverKind::automatic;
}

/// automatic over several processes: schur where the interface is at most
/// kSchurInterfacePerCut unknowns per cut between processes (a few bodies: chains, trees), else
/// mumps, in a build with it.
///
/// Over parts each process counts its own part's interface (an unknown held by two processes counts
/// twice), and the counts are summed (collective) so that every process chooses alike.
LinearSolverKind distributed_choice(const Distribution& processes, UnknownPlacement placement) {
  auto interface = static_cast<double>(std::ranges::count(placement.owners, kSharedUnknown));
  Index per_cut = kSchurInterfacePerCut;
  if (!placement.global_numbers.empty()) {
    processes.sum({&interface, 1});
    per_cut *= 2;
  }
  if (interface <= static_cast<double>(per_cut * (processes.ranks() - 1)) || !linear_solver_built(LinearSolverKind::mumps))
    return LinearSolverKind::schur;
  return LinearSolverKind::mumps;
}

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
  if (ordering == FillOrdering::automatic || kind == LinearSolverKind::klu || kind == LinearSolverKind::umfpack ||
      kind == LinearSolverKind::schur || kind == LinearSolverKind::automatic ||
      (kind == LinearSolverKind::mumps && ordering == FillOrdering::nested_dissection))
    return;
  throw LinearSolverError("the ordering " + std::string(to_string(ordering)) + " applies to klu, umfpack, schur and auto; " +
                          std::string(to_string(kind)) + " orders by its own rules: leave the ordering at auto" +
                          (kind == LinearSolverKind::mumps ? " or nd" : ""));
}

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, FillOrdering ordering,
                                                 const Distribution* processes, UnknownPlacement placement) {
  require_ordering_supported(kind, ordering);
  if (several(processes) && !factors_over_processes(kind))
    throw std::invalid_argument("the " + std::string(to_string(kind)) +
                                " solver factors in one process, and this run has " +
                                std::to_string(processes->ranks()) +
                                " processes: a run over several processes needs a distributed solver (--solver auto, "
                                "schur or mumps)");
  if (several(processes) && kind != LinearSolverKind::mumps && placement.owners.empty())
    throw std::invalid_argument("the " + std::string(to_string(kind)) +
                                " solver over several processes needs the unknowns' owners (divide_unknowns)");
  if (kind == LinearSolverKind::automatic && several(processes)) kind = distributed_choice(*processes, placement);
  switch (kind) {
    case LinearSolverKind::umfpack: return std::make_unique<UmfpackSolver>(ordering);
    case LinearSolverKind::klu: return std::make_unique<KluSolver>(ordering);
    case LinearSolverKind::cholmod: return std::make_unique<CholmodSolver>();
    case LinearSolverKind::eigen: return std::make_unique<EigenLuSolver>();
    case LinearSolverKind::schur: return std::make_unique<SchurSolver>(processes, placement.owners, ordering, placement.global_numbers);
    case LinearSolverKind::automatic: return std::make_unique<AutoSolver>(ordering);
    case LinearSolverKind::mumps:
#if NOETHER_WITH_PETSC
      // In one process a part is the whole system, in its own numbering.
      return make_petsc_lu_solver(kind, processes, ordering,
                                  several(processes) ? placement.global_numbers : std::span<const Index>());
#else
      throw LinearSolverError(linear_solver_missing_message(kind));
#endif
  }
  throw LinearSolverError("unknown linear solver kind");
}

}  // namespace noether
