#include <noether/solvers/linear/linear_solver.hpp>


namespace noether {

std::string_view to_string(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::umfpack: return "umfpack";
    case LinearSolverKind::klu: return "klu";
    case LinearSolverKind::cholmod: return "cholmod";
    case LinearSolverKind::eigen: return "eigen";
    case LinearSolverKind::mumps: return "mumps";
  }
  return "unknown";
}

std::optional<LinearSolverKind> parse_linear_solver_kind(std::string_view name) {
  for (LinearSolverKind kind : {LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::cholmod,
                                LinearSolverKind::eigen, LinearSolverKind::mumps})
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

void check_solve_sizes(std::string_view backend, Index n, std::span<const double> b, std::span<double> x) {
  const auto expected = static_cast<std::size_t>(n);
  if (b.size() != expected || x.size() != expected)
    throw LinearSolverError(std::string(backend) + ": solve expects b and x of size " + std::to_string(n) + ", got " +
                            std::to_string(b.size()) + " and " + std::to_string(x.size()));
}

}  // namespace noether
