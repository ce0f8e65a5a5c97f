#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <Eigen/SparseCore>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/solvers/linear/lu_column_ordering.hpp>
#include "support/finite_differences.hpp"
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::SparseMatrix;
using testing::Triplets;
using testing::from_triplets;
using testing::grid_laplacian;

/// A chain-like saddle point [K G^T; G 0]: K tridiagonal (d), each of the m constraint rows couples
/// coordinates 2r and 2r + 3 (m = d/2 - 1), and the multiplier block is a structural zero diagonal.
SparseMatrix chain_saddle_point(Index d) {
  const Index m = d / 2 - 1;
  Triplets t;
  for (Index i = 0; i < d; ++i) {
    t.emplace_back(i, i, 4.0);
    if (i + 1 < d) t.insert(t.end(), {{i, i + 1, -1.0}, {i + 1, i, -1.0}});
  }
  for (Index r = 0; r < m; ++r) {
    for (const auto& [col, w] : {std::pair{2 * r, 1.0}, std::pair{2 * r + 3, -0.5}})
      t.insert(t.end(), {{d + r, col, w}, {col, d + r, w}});
    t.emplace_back(d + r, d + r, 0.0);
  }
  return from_triplets(d + m, t);
}

CscPattern pattern_of(const SparseMatrix& A) {
  return {static_cast<Index>(A.rows()), {A.outerIndexPtr(), A.outerIndexPtr() + A.cols() + 1},
          {A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros()}};
}

LuColumnOrdering order(const SparseMatrix& A) {
  const auto n = static_cast<std::size_t>(A.cols());
  return order_columns_for_lu(static_cast<Index>(n), {A.outerIndexPtr(), n + 1},
                              {A.innerIndexPtr(), static_cast<std::size_t>(A.nonZeros())});
}

bool is_permutation_of_range(std::vector<Index> p) {
  std::sort(p.begin(), p.end());
  std::vector<Index> identity(p.size());
  std::iota(identity.begin(), identity.end(), 0);
  return p == identity;
}

}  // namespace

TEST_CASE("chains keep COLAMD, and a two-dimensional graph gets nested dissection, with fewer predicted flops") {
  const LuColumnOrdering chain = order(chain_saddle_point(2000));
  CHECK(chain.method == "colamd");
  CHECK(chain.columns.size() == 2000 + 999);
  CHECK(is_permutation_of_range(chain.columns));

  const SparseMatrix grid = grid_laplacian(100);
  const LuColumnOrdering nested = order(grid);
  CHECK(nested.method == "nested dissection");
  CHECK(is_permutation_of_range(nested.columns));
  CHECK(nested.predicted_flops > 0.0);

  // A smaller grid stays below the fill threshold (COLAMD's flops per nonzero of L < 100).
  CHECK(order(grid_laplacian(30)).method == "colamd");
}

TEST_CASE("KLU solves with the chosen ordering and records it") {
  for (const SparseMatrix& A : {chain_saddle_point(2000), grid_laplacian(100)}) {
    const CscPattern pattern = pattern_of(A);
    KluSolver klu;
    klu.analyze_pattern(pattern);
    CHECK(klu.ordering().failure.empty());
    // order_columns_for_lu's choice is the first candidate of the trial (test_klu_ordering_trial.cpp).
    CHECK(klu.candidate_methods().front() == (A.rows() == 10000 ? "nested dissection" : "colamd"));
    REQUIRE(klu.factorize({A.valuePtr(), static_cast<std::size_t>(A.nonZeros())}).ok);
    MESSAGE(klu.ordering().method, ": ", klu.ordering().reason);
    const Vector x_true = testing::random_vector(A.rows(), 3, 1.0);
    const Vector b = A * x_true;
    Vector x(A.rows());
    klu.solve({b.data(), static_cast<std::size_t>(b.size())}, {x.data(), static_cast<std::size_t>(x.size())});
    CHECK((x - x_true).cwiseAbs().maxCoeff() <= 1e-11);
  }
}

TEST_CASE("KLU without row scaling is backward stable on saddle points whose rows differ in scale") {
  // The momentum rows of a Newton matrix carry (2/h) M, the constraint rows G: their scales differ
  // by 2/h times a mass. KLU pivots on the unscaled values (KluSolver sets common.scale = -1); the
  // componentwise backward error max_i |A x - b|_i / (|A| |x| + |b|)_i shows whether that stays
  // stable, independently of the condition number the scaling gives A. One KLU object factors the
  // scales in turn, so all but the first are refactorizations on the first one's pivots (unless the
  // rcond test asks for fresh ones), as in a Newton loop whose step size changes.
  const Index d = 400;
  const SparseMatrix A0 = chain_saddle_point(d);
  const CscPattern pattern = pattern_of(A0);
  KluSolver klu;
  klu.analyze_pattern(pattern);
  for (double momentum_scale : {1e-4, 1.0, 1e4, 1e8}) {
    CAPTURE(momentum_scale);
    SparseMatrix A = A0;
    for (Index j = 0; j < A.outerSize(); ++j)
      for (SparseMatrix::InnerIterator it(A, j); it; ++it)
        if (it.row() < d) it.valueRef() *= momentum_scale;
    REQUIRE(klu.factorize({A.valuePtr(), static_cast<std::size_t>(A.nonZeros())}).ok);
    const Vector b = A * testing::random_vector(A.rows(), 5, 1.0);
    Vector x(A.rows());
    klu.solve({b.data(), static_cast<std::size_t>(b.size())}, {x.data(), static_cast<std::size_t>(x.size())});
    const Vector bound = A.cwiseAbs() * x.cwiseAbs() + b.cwiseAbs();
    // Measured: 2.2e-16 to 2.7e-16 up to a scale of 1e4, 1.4e-14 at 1e8 (the refactorization there
    // reuses the pivots chosen at 1e-4); 1e-13 is a few hundred units of round-off.
    CHECK(((A * x - b).cwiseAbs().array() / bound.array()).maxCoeff() <= 1e-13);
  }
}

namespace {

/// order_columns_for_lu's ordering of the Newton matrix of livens-em on a scale scenario: the
/// first candidate of KLU's trial.
std::string klu_method_for(const std::string& scenario_name, const ParameterValues& overrides) {
  const Scenario& scenario = find_scenario(scenario_name);
  const Model model = scenario.build(resolve_parameters(scenario, overrides));
  const KluSolver* klu = nullptr;
  StepperOptions options;
  options.newton.linear_solver_factory = [&]() -> std::unique_ptr<LinearSolver> {
    auto solver = std::make_unique<KluSolver>();
    klu = solver.get();
    return solver;
  };
  const LivensEnergyMomentum stepper(*model.system, options);
  REQUIRE(klu != nullptr);
  CHECK(klu->ordering().failure.empty());
  return klu->candidate_methods().front();
}

}  // namespace

TEST_CASE("KLU's structural candidate keeps the steppers' body-wise numbering where COLAMD would fill in more") {
  // The 3D revolute chain (23 unknowns per body): COLAMD predicts 4.5e6 flops at n = 100, the
  // body-wise order 3.3e6. The planar chain and the 3D spherical chain are the other way round.
  CHECK(klu_method_for("chain3d", {{"n", 100}, {"joint", 1}}) == "given");
  CHECK(klu_method_for("chain3d", {{"n", 100}, {"joint", 0}}) == "colamd");
  CHECK(klu_method_for("chain2d", {{"n", 100}}) == "colamd");
}

TEST_CASE("an ordering request with inconsistent sizes is refused") {
  const std::vector<Index> starts{0, 1}, rows{0};
  CHECK_THROWS_AS(order_columns_for_lu(2, starts, rows), std::invalid_argument);
  CHECK(order_columns_for_lu(0, std::vector<Index>{0}, {}).columns.empty());
}
