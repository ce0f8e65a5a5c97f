#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/solvers/linear/auto_solver.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::grid_laplacian;
using testing::saddle_point_matrix;
using testing::SparseSystem;
using testing::to_csc;

FactorizationProfile first_profile(LinearSolver& solver, const SparseSystem& s) {
  solver.analyze_pattern(s.pattern);
  REQUIRE(solver.factorize(s.values).ok);
  return solver.factorization_profile();
}

/// The back-end AutoSolver must choose under `rule`, from KLU's and UMFPACK's own first
/// factorizations of the matrix.
std::string expected_choice(const SparseSystem& s, const AutoSolverRule& rule) {
  KluSolver klu;
  const FactorizationProfile k = first_profile(klu, s);
  const double per_entry = k.flops / static_cast<double>(k.factor_entries);
  if (k.flops < rule.trial_flops || per_entry <= rule.wide_front_flops_per_entry) return "klu";
  UmfpackSolver umfpack;
  const FactorizationProfile u = first_profile(umfpack, s);
  return u.flops * rule.umfpack_margin < k.flops ? "umfpack" : "klu";
}

std::vector<double> solve(LinearSolver& solver, Index n) {
  std::vector<double> b(static_cast<std::size_t>(n), 1.0), x(b.size());
  solver.solve(b, x);
  return x;
}

}  // namespace

TEST_CASE("auto: a chain-like matrix stays with KLU, to the bit, and says why") {
  const SparseSystem s = to_csc(saddle_point_matrix(300, 90, 2));
  AutoSolver automatic(FillOrdering::automatic, AutoSolverRule{15.0, 0.0, 1.0});  // past the flops threshold
  const FactorizationProfile profile = first_profile(automatic, s);
  CHECK(profile.solver == "klu");
  CHECK(profile.reason.find("narrow fronts") != std::string::npos);
  AutoSolver small;
  CHECK(first_profile(small, s).reason.find("too few to try umfpack") != std::string::npos);
  KluSolver klu;
  first_profile(klu, s);
  CHECK(solve(automatic, s.pattern.n) == solve(klu, s.pattern.n));
}

TEST_CASE("auto: where KLU's fronts are wide, the back-end of fewer flops, chosen again alike after forgetting") {
  // A 40 x 40 grid: KLU's factors have wide fronts; the trial threshold lowered so that the test
  // stays small. Whichever wins, the choice must follow the rule from the two back-ends' own counts.
  const SparseSystem s = to_csc(grid_laplacian(40));
  const AutoSolverRule rule{15.0, 0.0, 1.0};
  AutoSolver automatic(FillOrdering::automatic, rule);
  const FactorizationProfile profile = first_profile(automatic, s);
  const std::string expected = expected_choice(s, rule);
  CHECK(profile.solver == expected);
  CHECK(profile.reason.find("umfpack") != std::string::npos);  // the trial ran, and the reason gives its figures
  const std::vector<double> x = solve(automatic, s.pattern.n);
  automatic.forget_factorization();
  REQUIRE(automatic.factorize(s.values).ok);
  CHECK(automatic.factorization_profile().solver == expected);
  CHECK(solve(automatic, s.pattern.n) == x);
}

TEST_CASE("auto: a margin no back-end can meet keeps KLU after the trial") {
  const SparseSystem s = to_csc(grid_laplacian(30));
  AutoSolver automatic(FillOrdering::automatic, AutoSolverRule{0.0, 0.0, 1e9});
  const FactorizationProfile profile = first_profile(automatic, s);
  CHECK(profile.solver == "klu");
  CHECK(profile.reason.find("umfpack") != std::string::npos);
}

TEST_CASE("make_linear_solver: auto in one process is AutoSolver, schur and auto take the orderings") {
  CHECK(make_linear_solver(LinearSolverKind::automatic)->kind() == LinearSolverKind::automatic);
  CHECK(make_linear_solver(LinearSolverKind::schur, FillOrdering::nested_dissection)->kind() == LinearSolverKind::schur);
  CHECK_NOTHROW(make_linear_solver(LinearSolverKind::automatic, FillOrdering::amd));
  CHECK(parse_linear_solver_kind("auto") == LinearSolverKind::automatic);
  CHECK(parse_linear_solver_kind("schur") == LinearSolverKind::schur);
}
