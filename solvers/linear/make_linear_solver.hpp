#pragma once
/// The one place that knows every linear back-end: makes one by kind.
#include <memory>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// A new back-end of the given kind, with no pattern analyzed yet, factoring in `ordering` (KLU
/// and UMFPACK). Throws LinearSolverError for an ordering other than automatic with CHOLMOD or
/// Eigen, which order by their own rules.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind,
                                                 FillOrdering ordering = FillOrdering::automatic);

/// Throws LinearSolverError, naming both, unless `kind` takes `ordering` (make_linear_solver).
void require_ordering_supported(LinearSolverKind kind, FillOrdering ordering);

}  // namespace noether
