#include <noether/solvers/linear/make_linear_solver.hpp>

#include <noether/solvers/linear/cholmod_solver.hpp>
#include <noether/solvers/linear/eigen_lu_solver.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>

#include <stdexcept>
#include <string>

namespace noether {

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const Distribution* processes) {
  if (processes && processes->ranks() > 1)
    throw std::invalid_argument("the " + std::string(to_string(kind)) +
                                " solver factors in one process, and this run has " +
                                std::to_string(processes->ranks()) +
                                " processes: a run over several processes needs a distributed solver");
  switch (kind) {
    case LinearSolverKind::umfpack: return std::make_unique<UmfpackSolver>();
    case LinearSolverKind::klu: return std::make_unique<KluSolver>();
    case LinearSolverKind::cholmod: return std::make_unique<CholmodSolver>();
    case LinearSolverKind::eigen: return std::make_unique<EigenLuSolver>();
  }
  throw LinearSolverError("unknown linear solver kind");
}

}  // namespace noether
