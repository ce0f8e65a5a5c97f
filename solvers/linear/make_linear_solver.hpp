#pragma once
/// The one place that knows every linear back-end: makes one by kind.
#include <memory>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// A new back-end of the given kind, with no pattern analyzed yet.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind);

}  // namespace noether
