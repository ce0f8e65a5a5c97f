#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

std::string_view to_string(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::umfpack: return "umfpack";
    case LinearSolverKind::klu: return "klu";
    case LinearSolverKind::cholmod: return "cholmod";
    case LinearSolverKind::eigen: return "eigen";
    case LinearSolverKind::mumps: return "mumps";
    case LinearSolverKind::schur: return "schur";
    case LinearSolverKind::automatic: return "auto";
  }
  return "unknown";
}

std::optional<LinearSolverKind> parse_linear_solver_kind(std::string_view name) {
  for (LinearSolverKind kind : {LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::cholmod,
                                LinearSolverKind::eigen, LinearSolverKind::mumps, LinearSolverKind::schur,
                                LinearSolverKind::automatic})
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

std::string_view to_string(FillOrdering ordering) {
  switch (ordering) {
    case FillOrdering::automatic: return "auto";
    case FillOrdering::nested_dissection: return "nd";
    case FillOrdering::amd: return "amd";
    case FillOrdering::colamd: return "colamd";
  }
  return "unknown";
}

std::optional<FillOrdering> parse_fill_ordering(std::string_view name) {
  for (FillOrdering ordering :
       {FillOrdering::automatic, FillOrdering::nested_dissection, FillOrdering::amd, FillOrdering::colamd})
    if (to_string(ordering) == name) return ordering;
  return std::nullopt;
}

void check_solve_sizes(std::string_view backend, Index n, std::span<const double> b, std::span<double> x) {
  const auto expected = static_cast<std::size_t>(n);
  if (b.size() != expected || x.size() != expected)
    throw LinearSolverError(std::string(backend) + ": solve expects b and x of size " + std::to_string(n) + ", got " +
                            std::to_string(b.size()) + " and " + std::to_string(x.size()));
}

}  // namespace noether
