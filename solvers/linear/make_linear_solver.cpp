#include <noether/solvers/linear/make_linear_solver.hpp>

#include <string>

#include <noether/solvers/linear/cholmod_solver.hpp>
#include <noether/solvers/linear/eigen_lu_solver.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>

namespace noether {

void require_ordering_supported(LinearSolverKind kind, FillOrdering ordering) {
  if (ordering == FillOrdering::automatic || kind == LinearSolverKind::klu || kind == LinearSolverKind::umfpack) return;
  throw LinearSolverError("the ordering " + std::string(to_string(ordering)) + " applies to klu and umfpack; " +
                          std::string(to_string(kind)) + " orders by its own rules: leave the ordering at auto");
}

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, FillOrdering ordering) {
  require_ordering_supported(kind, ordering);
  switch (kind) {
    case LinearSolverKind::umfpack: return std::make_unique<UmfpackSolver>(ordering);
    case LinearSolverKind::klu: return std::make_unique<KluSolver>(ordering);
    case LinearSolverKind::cholmod: return std::make_unique<CholmodSolver>();
    case LinearSolverKind::eigen: return std::make_unique<EigenLuSolver>();
  }
  throw LinearSolverError("unknown linear solver kind");
}

}  // namespace noether
