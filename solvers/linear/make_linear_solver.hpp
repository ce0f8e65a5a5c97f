#pragma once
/// The one place that knows every linear back-end: makes one by kind.
#include <memory>

#include <noether/engine/distribution.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// A new back-end of the given kind, with no pattern analyzed yet. processes: the processes whose
/// matrix parts it is to sum and factor together (engine/distribution.hpp), nullptr for one
/// process; a back-end that factors in one process alone refuses them (std::invalid_argument
/// naming it and what to use instead).
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const Distribution* processes = nullptr);

}  // namespace noether
