#include <cmath>
#include <initializer_list>
#include <random>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>

#include <doctest/doctest.h>

#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/linear/linear_solver.hpp>
#include "support/finite_differences.hpp"
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::from_triplets;
using testing::saddle_point_matrix;
using testing::SparseMatrix;
using testing::SparseSystem;
using testing::to_csc;
using testing::Triplets;

/// The kinds among `kinds` that this build has (mumps with PETSc only; the test
/// suite's build, scripts/setup.sh all, always has them).
std::vector<LinearSolverKind> built(std::initializer_list<LinearSolverKind> kinds) {
  std::vector<LinearSolverKind> out;
  for (LinearSolverKind kind : kinds)
    if (linear_solver_built(kind)) out.push_back(kind);
  return out;
}
const std::vector<LinearSolverKind> kUnsymmetricBackends =
    built({LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::eigen, LinearSolverKind::mumps});
const std::vector<LinearSolverKind> kAllBackends =
    built({LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::eigen, LinearSolverKind::cholmod,
           LinearSolverKind::mumps});

/// Unsymmetric: diagonal 6 plus five random entries per column in [-1, 1], whose transposed
/// positions are mostly structural zeros. Diagonally dominant, so well conditioned.
SparseMatrix unsymmetric_matrix(Index n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<Index> row(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Triplets t;
  for (Index j = 0; j < n; ++j) {
    t.emplace_back(j, j, 6.0 + value(generator));
    for (int k = 0; k < 5; ++k) t.emplace_back(row(generator), j, value(generator));
  }
  return from_triplets(n, t);
}

/// SPD: the 5-point Laplacian of a side x side grid plus 0.1 I.
SparseMatrix spd_matrix(Index side) {
  const Index n = side * side;
  Triplets t;
  for (Index i = 0; i < side; ++i)
    for (Index j = 0; j < side; ++j) {
      const Index k = i * side + j;
      t.emplace_back(k, k, 4.1);
      if (i + 1 < side) {
        t.emplace_back(k, k + side, -1.0);
        t.emplace_back(k + side, k, -1.0);
      }
      if (j + 1 < side) {
        t.emplace_back(k, k + 1, -1.0);
        t.emplace_back(k + 1, k, -1.0);
      }
    }
  return from_triplets(n, t);
}

Vector solve_with(LinearSolverKind kind, const SparseSystem& s, const Vector& b) {
  auto solver = make_linear_solver(kind);
  solver->analyze_pattern(s.pattern);
  const FactorizationStatus status = solver->factorize(s.values);
  REQUIRE_MESSAGE(status.ok, status.message);
  Vector x(s.pattern.n);
  solver->solve(std::span<const double>(b.data(), static_cast<std::size_t>(b.size())),
                std::span<double>(x.data(), static_cast<std::size_t>(x.size())));
  return x;
}

/// Solves A x = A x_true with each backend; each must recover x_true, and all must agree.
void check_backends_recover_known_solution(const SparseMatrix& A, std::span<const LinearSolverKind> kinds,
                                           double tolerance) {
  const SparseSystem s = to_csc(A);
  const Vector x_true = testing::random_vector(s.pattern.n, 99, 1.0);
  const Vector b = A * x_true;
  const Vector first = solve_with(kinds[0], s, b);
  for (LinearSolverKind kind : kinds) {
    CAPTURE(to_string(kind));
    const Vector x = solve_with(kind, s, b);
    MESSAGE(to_string(kind), ": max|x - x_true| = ", (x - x_true).cwiseAbs().maxCoeff());
    CHECK((x - x_true).cwiseAbs().maxCoeff() <= tolerance);
    CHECK((x - first).cwiseAbs().maxCoeff() <= tolerance);
  }
}

/// The same matrix with every value multiplied by 1 + 0.2 u, u uniform in [-1, 1].
std::vector<double> perturbed(const std::vector<double>& values, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> out(values);
  for (double& v : out) v *= 1.0 + 0.2 * u(generator);
  return out;
}

std::span<const double> as_span(const Vector& x) { return {x.data(), static_cast<std::size_t>(x.size())}; }
std::span<double> as_span(Vector& x) { return {x.data(), static_cast<std::size_t>(x.size())}; }

}  // namespace

TEST_CASE("every backend solves an unsymmetric sparse system of 300 unknowns with a known solution") {
  // Diagonally dominant (condition ~10): 1e-12 leaves a thousand ulps for 300-term sums.
  check_backends_recover_known_solution(unsymmetric_matrix(300, 1), kUnsymmetricBackends, 1e-12);
}

TEST_CASE("every backend solves a saddle-point matrix [[K, G^T], [G, 0]] like the Newton matrices") {
  const SparseMatrix A = saddle_point_matrix(150, 45, 2);
  check_backends_recover_known_solution(A, kUnsymmetricBackends, 1e-11);
}

TEST_CASE("every backend, CHOLMOD included, solves an SPD system, and CHOLMOD reads only the upper triangle") {
  const SparseMatrix A = spd_matrix(20);  // 400 unknowns, condition ~ 80
  check_backends_recover_known_solution(A, kAllBackends, 1e-12);

  // The upper triangle alone gives CHOLMOD the same answer.
  const SparseMatrix upper = A.triangularView<Eigen::Upper>();
  const SparseSystem s_upper = to_csc(upper);
  const Vector x_true = testing::random_vector(A.rows(), 5, 1.0);
  const Vector x = solve_with(LinearSolverKind::cholmod, s_upper, Vector(A * x_true));
  CHECK((x - x_true).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("refactorizing new values on the same pattern matches a fresh solver (KLU: klu_refactor)") {
  const SparseSystem s = to_csc(unsymmetric_matrix(200, 3));
  const Vector b = testing::random_vector(s.pattern.n, 4, 1.0);
  for (LinearSolverKind kind : kUnsymmetricBackends) {
    CAPTURE(to_string(kind));
    auto reused = make_linear_solver(kind);
    reused->analyze_pattern(s.pattern);
    for (unsigned round = 0; round < 4; ++round) {
      SparseSystem fresh_system{s.pattern, perturbed(s.values, 10 + round)};
      REQUIRE(reused->factorize(fresh_system.values).ok);
      Vector x(s.pattern.n);
      reused->solve(as_span(b), as_span(x));
      const Vector x_fresh = solve_with(kind, fresh_system, b);
      CHECK((x - x_fresh).cwiseAbs().maxCoeff() <= 1e-13);
    }
    if (kind == LinearSolverKind::klu) CHECK(dynamic_cast<const KluSolver&>(*reused).refactorizations() == 3);
  }
}

TEST_CASE("KLU falls back to a fresh factorization when the old pivot order has gone bad") {
  // Column-major values of a full 2 x 2 pattern: (0,0), (1,0), (0,1), (1,1).
  const SparseSystem s = to_csc(from_triplets(2, {{0, 0, 1.0}, {1, 0, 0.5}, {0, 1, 0.5}, {1, 1, 1.0}}));
  const Vector b = Vector(Eigen::Vector2d(1.0, 2.0));
  // Tiny diagonal: the diagonal pivots still exist but grow 1e13-fold (rgrowth 1e-13 < 1e-8).
  // Zero diagonal: klu_refactor meets a zero pivot.
  for (const double diagonal : {1e-13, 0.0}) {
    CAPTURE(diagonal);
    KluSolver klu;
    klu.analyze_pattern(s.pattern);
    REQUIRE(klu.factorize(s.values).ok);  // diagonal pivots
    REQUIRE(klu.factorize(std::vector<double>{diagonal, 1.0, 1.0, diagonal}).ok);
    Vector x(2);
    klu.solve(as_span(b), as_span(x));
    const Eigen::Vector2d expected = Eigen::Matrix2d{{diagonal, 1.0}, {1.0, diagonal}}.inverse() * Eigen::Vector2d(1.0, 2.0);
    CHECK((x - expected).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK(klu.refactorizations() == 0);
    // The fresh factorization pivoted off the diagonal; the well-conditioned matrix refactors with that order.
    REQUIRE(klu.factorize(s.values).ok);
    CHECK(klu.refactorizations() == 1);
  }
}

TEST_CASE("KLU solves and refactorizes a reducible matrix (several blocks of its block triangular form)") {
  // [S1 C; 0 S2], two saddle-point blocks coupled one way, then symmetrically permuted so that
  // the blocks are interleaved: KLU's analysis finds them, and factors the reordered matrix block
  // by block.
  const SparseMatrix S1 = saddle_point_matrix(30, 9, 5), S2 = saddle_point_matrix(24, 7, 6);
  const Index n1 = S1.rows(), n = n1 + S2.rows();
  Triplets t;
  for (const auto& [S, offset] : {std::pair{&S1, Index{0}}, std::pair{&S2, n1}})
    for (Index j = 0; j < S->outerSize(); ++j)
      for (SparseMatrix::InnerIterator it(*S, j); it; ++it) t.emplace_back(offset + it.row(), offset + j, it.value());
  for (Index i = 0; i < n1; i += 4) t.emplace_back(i, n1 + (i % S2.rows()), 0.5);  // C
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, Index> interleave(n);
  for (Index k = 0; k < n; ++k) interleave.indices()(k) = (k * 37) % n;  // 37 and n = 70 are coprime
  REQUIRE(n == 70);
  const SparseMatrix A = interleave * from_triplets(n, t) * interleave.transpose();
  const SparseSystem s = to_csc(A);
  const Vector x_true = testing::random_vector(n, 21, 1.0);

  KluSolver klu;
  klu.analyze_pattern(s.pattern);
  for (unsigned round = 0; round < 3; ++round) {
    CAPTURE(round);
    const std::vector<double> values = round == 0 ? s.values : perturbed(s.values, 30 + round);
    REQUIRE(klu.factorize(values).ok);
    SparseMatrix A_round = A;
    std::copy(values.begin(), values.end(), A_round.valuePtr());
    const Vector b = A_round * x_true;
    Vector x(n);
    klu.solve(as_span(b), as_span(x));
    CHECK((x - x_true).cwiseAbs().maxCoeff() <= 1e-12);
  }
  CHECK(klu.refactorizations() == 2);
}

TEST_CASE("KLU reports a structurally singular pattern (an empty column) as a failed factorization") {
  // Column 1 holds no entry, so no order of rows and columns gives a zero-free diagonal. The
  // analysis and the reordered copy must still be made, and the factorization must report it.
  const CscPattern pattern{3, {0, 2, 2, 4}, {0, 1, 0, 1}};
  KluSolver klu;
  klu.analyze_pattern(pattern);
  const FactorizationStatus status = klu.factorize(std::vector<double>{1.0, 2.0, 3.0, 4.0});
  CHECK_FALSE(status.ok);
  CHECK(status.message == "klu: the matrix is singular");
}

TEST_CASE("KLU counts the nonzeros of its factors: L + U without L's unit diagonal") {
  // An arrow matrix: dense last row and column. Eliminated last it fills in nothing (L: the last
  // row, U: the last column, 3 n - 2 entries with the diagonal); eliminated first it fills in all.
  const Index n = 6;
  Triplets t;
  for (Index i = 0; i < n; ++i) t.emplace_back(i, i, 4.0);
  for (Index i = 0; i + 1 < n; ++i) {
    t.emplace_back(n - 1, i, 1.0);
    t.emplace_back(i, n - 1, 1.0);
  }
  const SparseSystem s = to_csc(from_triplets(n, t));
  KluSolver klu;
  klu.analyze_pattern(s.pattern);
  CHECK(klu.factor_entries() == 0);  // nothing factorized yet
  REQUIRE(klu.factorize(s.values).ok);
  MESSAGE("arrow matrix of ", n, ": ", s.values.size(), " nonzeros, L + U ", klu.factor_entries());
  CHECK(klu.factor_entries() >= static_cast<Index>(s.values.size()));  // the factors hold A's pattern at least
  CHECK(klu.factor_entries() <= n * n);
  CHECK(klu.factor_entries() == 3 * n - 2);  // COLAMD puts the dense column last: no fill
}

TEST_CASE("a singular matrix is a failed status with a message, then the solver recovers") {
  // Two exactly singular matrices: (a) a diagonally dominant one with column 7 zeroed (the zeros
  // stay in the pattern); (b) the identity with rows 3 and 7 both (1, 1) in columns 3 and 7,
  // whose elimination 1 - 1 * 1 = 0 is exact in floating point.
  const SparseSystem good = to_csc(unsymmetric_matrix(50, 6));
  SparseSystem zero_column = good;
  for (Index k = good.pattern.column_starts[7]; k < good.pattern.column_starts[8]; ++k)
    zero_column.values[static_cast<std::size_t>(k)] = 0.0;
  Triplets t{{3, 7, 1.0}, {7, 3, 1.0}};
  for (Index i = 0; i < 50; ++i) t.emplace_back(i, i, 1.0);
  const SparseSystem dependent_rows = to_csc(from_triplets(50, t));
  SparseSystem dependent_rows_fixed = dependent_rows;
  dependent_rows_fixed.values[static_cast<std::size_t>(dependent_rows.pattern.find(7, 7))] = 2.0;

  const Vector b = testing::random_vector(50, 7, 1.0);
  for (LinearSolverKind kind : kUnsymmetricBackends) {
    using Case = std::pair<const SparseSystem*, const SparseSystem*>;  // singular, regular on the same pattern
    for (const auto& [singular, regular] : {Case{&zero_column, &good}, Case{&dependent_rows, &dependent_rows_fixed}}) {
      CAPTURE(to_string(kind));
      auto solver = make_linear_solver(kind);
      solver->analyze_pattern(singular->pattern);
      REQUIRE(solver->factorize(regular->values).ok);
      const FactorizationStatus status = solver->factorize(singular->values);
      MESSAGE(to_string(kind), ": ", status.message);
      CHECK_FALSE(status.ok);
      CHECK(status.message.find(std::string(to_string(kind))) == 0);  // names the backend
      if (kind == LinearSolverKind::mumps) CHECK(status.message.find("MUMPS INFOG(1) = -10") != std::string::npos);
      Vector x(50);
      CHECK_THROWS_AS(solver->solve(as_span(b), as_span(x)), LinearSolverError);  // the old factors are gone
      REQUIRE(solver->factorize(regular->values).ok);
      solver->solve(as_span(b), as_span(x));
      CHECK((solve_with(kind, *regular, b) - x).cwiseAbs().maxCoeff() <= 1e-13);
    }
  }
}

TEST_CASE("CHOLMOD reports a matrix that is not positive definite (simplicial and supernodal)") {
  const auto check_refused = [](const SparseMatrix& A, const std::string& what) {
    CAPTURE(what);
    const SparseSystem s = to_csc(A);
    auto solver = make_linear_solver(LinearSolverKind::cholmod);
    CHECK(solver->needs_symmetric_positive_definite());
    solver->analyze_pattern(s.pattern);
    const FactorizationStatus status = solver->factorize(s.values);
    MESSAGE(what, ": ", status.message);
    CHECK_FALSE(status.ok);
    CHECK(status.message.find("not positive definite") != std::string::npos);
    Vector b = Vector::Ones(A.rows()), x(A.rows());
    CHECK_THROWS_AS(solver->solve(as_span(b), as_span(x)), LinearSolverError);
  };
  // Small and sparse (CHOLMOD factorizes it simplicially): one negative diagonal entry, and
  // the negative definite -A. LDL' would accept both; the LL' factorization must refuse them.
  SparseMatrix A = spd_matrix(4);
  A.coeffRef(5, 5) = -1.0;
  check_refused(A, "indefinite tridiagonal-like 16 x 16");
  check_refused(-spd_matrix(4), "negative definite 16 x 16");
  // Singular positive semi-definite, exactly: rows 3 and 7 of the identity replaced by (1, 1) in
  // columns 3 and 7 (the pivot 1 - 1 * 1 = 0 is exact; a singular matrix whose last pivot is a
  // round-off residue may of course pass as positive definite).
  Triplets t{{3, 7, 1.0}, {7, 3, 1.0}};
  for (Index i = 0; i < 16; ++i) t.emplace_back(i, i, 1.0);
  check_refused(from_triplets(16, t), "singular semi-definite 16 x 16");
  // Dense 120 x 120 (CHOLMOD goes supernodal): R^T R + I shifted by its smallest eigenvalue + 1.
  const Matrix R = Matrix::NullaryExpr(120, 120, [](Eigen::Index i, Eigen::Index j) { return std::sin(0.37 * double(120 * i + j + 1)); });
  Matrix dense = R.transpose() * R + Matrix::Identity(120, 120);
  dense -= (Eigen::SelfAdjointEigenSolver<Matrix>(dense).eigenvalues()(0) + 1.0) * Matrix::Identity(120, 120);
  check_refused(dense.sparseView(), "dense indefinite 120 x 120");
}

TEST_CASE("misuse of a linear solver throws LinearSolverError") {
  const SparseSystem s = to_csc(spd_matrix(3));
  Vector b = Vector::Ones(9), x(9), short_x(8);
  for (LinearSolverKind kind : kAllBackends) {
    CAPTURE(to_string(kind));
    auto solver = make_linear_solver(kind);
    CHECK(solver->kind() == kind);
    CHECK(solver->needs_symmetric_positive_definite() == (kind == LinearSolverKind::cholmod));
    CHECK_THROWS_AS(solver->factorize(s.values), LinearSolverError);  // before analyze_pattern
    solver->analyze_pattern(s.pattern);
    CHECK_THROWS_AS(solver->solve(as_span(b), as_span(x)), LinearSolverError);  // before factorize
    CHECK_THROWS_WITH_AS(solver->factorize(std::vector<double>(s.values.size() - 1, 1.0)),
                         doctest::Contains("values, got"), LinearSolverError);
    REQUIRE(solver->factorize(s.values).ok);
    CHECK_THROWS_WITH_AS(solver->solve(as_span(b), as_span(short_x)), doctest::Contains("solve expects b and x of size 9"),
                         LinearSolverError);
    solver->solve(as_span(b), as_span(x));
    CHECK((spd_matrix(3) * x - b).cwiseAbs().maxCoeff() <= 1e-14);
  }
}

TEST_CASE("linear solver names round-trip") {
  for (LinearSolverKind kind : kAllBackends) {
    CAPTURE(to_string(kind));
    CHECK(parse_linear_solver_kind(to_string(kind)) == kind);
  }
  CHECK(to_string(LinearSolverKind::umfpack) == "umfpack");
  CHECK(to_string(LinearSolverKind::cholmod) == "cholmod");
  CHECK_FALSE(parse_linear_solver_kind("UMFPACK").has_value());
  CHECK_FALSE(parse_linear_solver_kind("").has_value());
  CHECK_FALSE(parse_linear_solver_kind("superlu").has_value());
  CHECK(parse_linear_solver_kind("mumps") == LinearSolverKind::mumps);  // named in every build
  CHECK_FALSE(parse_linear_solver_kind("superlu_dist").has_value());
}

TEST_CASE("a build without PETSc says how to get mumps: the package and the CMake option") {
  {
    const LinearSolverKind kind = LinearSolverKind::mumps;
    const std::string message = linear_solver_missing_message(kind);
    CHECK(message.find(std::string(to_string(kind))) == 0);
    CHECK(message.find("petsc-dev") != std::string::npos);
    CHECK(message.find("-DNOETHER_WITH_PETSC=ON") != std::string::npos);
    if (!linear_solver_built(kind))
      CHECK_THROWS_WITH_AS(make_linear_solver(kind), message.c_str(), LinearSolverError);
  }
  for (LinearSolverKind kind : {LinearSolverKind::klu, LinearSolverKind::umfpack, LinearSolverKind::eigen,
                                LinearSolverKind::cholmod}) {
    CHECK(linear_solver_built(kind));
    CHECK_THROWS_AS(linear_solver_missing_message(kind), std::logic_error);
  }
}

TEST_CASE("klu: right sides solved side by side give each column the bits of its own solve") {
  // Six columns: a chunk of four in KLU's solve, then two; a saddle-point matrix, so that KLU's
  // row and column orders both permute.
  const SparseSystem s = to_csc(saddle_point_matrix(40, 12, 5));
  KluSolver klu;
  klu.analyze_pattern(s.pattern);
  REQUIRE(klu.factorize(s.values).ok);
  const auto n = static_cast<std::size_t>(s.pattern.n);
  constexpr Index kColumns = 6;
  std::vector<double> columns(n * kColumns);
  for (std::size_t k = 0; k < columns.size(); ++k) columns[k] = std::sin(0.37 * static_cast<double>(k) + 0.1);
  std::vector<std::vector<double>> alone;
  for (Index c = 0; c < kColumns; ++c) {
    const std::vector<double> b(columns.begin() + static_cast<std::ptrdiff_t>(c * n),
                                columns.begin() + static_cast<std::ptrdiff_t>((c + 1) * n));
    alone.emplace_back(n);
    klu.solve(b, alone.back());
  }
  klu.solve_in_place(columns, kColumns);
  for (Index c = 0; c < kColumns; ++c) {
    CAPTURE(c);
    CHECK(std::equal(alone[static_cast<std::size_t>(c)].begin(), alone[static_cast<std::size_t>(c)].end(),
                     columns.begin() + static_cast<std::ptrdiff_t>(c * n)));
  }
  CHECK_THROWS_WITH_AS(klu.solve_in_place(columns, 5), "klu: 5 right sides of 52 entries do not fill a buffer of 312",
                       LinearSolverError);
}
