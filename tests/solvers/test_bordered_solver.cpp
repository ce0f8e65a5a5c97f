/// The tangent of a Newton system bordered by one global unknown (solvers/bordered_solver.hpp):
/// the transposed solves of every backend, Higham's 1-norm estimate, block elimination against a
/// dense solve, and Newton on a bordered system.
#include <cmath>

#include <Eigen/Dense>

#include <doctest/doctest.h>

#include <noether/solvers/bordered_solver.hpp>
#include <noether/solvers/condition_estimate.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/newton.hpp>
#include "support/finite_differences.hpp"
#include "support/sparse_matrices.hpp"

using namespace noether;

namespace {

using testing::saddle_point_matrix;
using testing::SparseMatrix;
using testing::SparseSystem;
using testing::to_csc;

std::span<const double> as_span(const Vector& x) { return {x.data(), static_cast<std::size_t>(x.size())}; }
std::span<double> as_span(Vector& x) { return {x.data(), static_cast<std::size_t>(x.size())}; }

/// The dense bordered matrix [A b; c^T d].
Matrix dense_bordered(const SparseMatrix& A, const Vector& b, const Vector& c, double d) {
  const Index n = A.rows();
  Matrix T(n + 1, n + 1);
  T.topLeftCorner(n, n) = Matrix(A);
  T.topRightCorner(n, 1) = b;
  T.bottomLeftCorner(1, n) = c.transpose();
  T(n, n) = d;
  return T;
}

}  // namespace

TEST_CASE("every backend solves the transposed system A^T x = b with the factorization of A") {
  const SparseSystem s = to_csc(saddle_point_matrix(60, 18, 7));
  const SparseMatrix A = saddle_point_matrix(60, 18, 7);
  const Vector x_true = testing::random_vector(s.pattern.n, 8);
  const Vector b = A.transpose() * x_true;
  for (LinearSolverKind kind : {LinearSolverKind::klu, LinearSolverKind::umfpack, LinearSolverKind::eigen,
                                LinearSolverKind::mumps}) {
    CAPTURE(to_string(kind));
    if (!linear_solver_built(kind)) continue;  // mumps: with PETSc (the test suite's build has it)
    auto solver = make_linear_solver(kind);
    solver->analyze_pattern(s.pattern);
    REQUIRE(solver->factorize(s.values).ok);
    Vector x(s.pattern.n);
    solver->solve_transposed(as_span(b), as_span(x));
    CHECK((x - x_true).cwiseAbs().maxCoeff() <= 1e-12);  // condition ~ 30: a few hundred ulps
  }
}

TEST_CASE("Higham's estimate of ||B^-1||_1 is a lower bound within a factor 3, exact on small matrices") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    const Index n = 2 + static_cast<Index>(seed % 9);
    Matrix B = Matrix::Random(n, n);
    B.diagonal().array() += 0.1 * static_cast<double>(seed % 4);  // from nearly singular to dominant
    const Eigen::PartialPivLU<Matrix> lu(B);
    const double exact = lu.inverse().cwiseAbs().colwise().sum().maxCoeff();
    const double estimate = estimate_inverse_norm1(
        n, [&](VectorRef x) { x = lu.solve(Vector(x)); }, [&](VectorRef x) { x = lu.transpose().solve(Vector(x)); });
    CHECK(estimate <= exact * (1 + 1e-12));
    CHECK(estimate >= exact / 3);
  }
  const double one = estimate_inverse_norm1(1, [](VectorRef x) { x *= 4.0; }, [](VectorRef x) { x *= 4.0; });
  CHECK(one == 4.0);  // B = 1/4
}

TEST_CASE("the bordered solve by block elimination equals a dense solve of [[A, b], [c^T, d]]") {
  const SparseMatrix A = saddle_point_matrix(30, 9, 3);
  const SparseSystem s = to_csc(A);
  const Index n = s.pattern.n;
  const Vector b = testing::random_vector(n, 4), c = testing::random_vector(n, 5);
  const double d = 0.7;
  const Matrix T = dense_bordered(A, b, c, d);
  const Vector rhs = testing::random_vector(n + 1, 6);
  const Eigen::FullPivLU<Matrix> dense(T);
  for (LinearSolverKind kind : {LinearSolverKind::klu, LinearSolverKind::umfpack, LinearSolverKind::eigen}) {
    CAPTURE(to_string(kind));
    BorderedTangentSolver tangent(make_linear_solver(kind), s.pattern,
                                  [&] { return BorderView{as_span(b), as_span(c), d}; });
    CHECK(tangent.size() == n + 1);
    REQUIRE(tangent.factorize(s.values, true).ok);
    Vector x(n + 1);
    tangent.solve(as_span(rhs), as_span(x));
    const Vector expected = dense.solve(rhs);
    MESSAGE(to_string(kind), ": max|x - x_dense| = ", (x - expected).cwiseAbs().maxCoeff());
    CHECK((x - expected).cwiseAbs().maxCoeff() <= 1e-12);
    tangent.solve_transposed(as_span(rhs), as_span(x));
    CHECK((x - Vector(dense.transpose().solve(rhs))).cwiseAbs().maxCoeff() <= 1e-12);

    // kappa_1 against the dense inverse: a lower bound within Higham's factor 3.
    const double exact = T.cwiseAbs().colwise().sum().maxCoeff() * dense.inverse().cwiseAbs().colwise().sum().maxCoeff();
    const double estimate = tangent.condition_estimate();
    MESSAGE("kappa_1 ", exact, ", estimated ", estimate);
    CHECK(estimate <= exact * (1 + 1e-10));
    CHECK(estimate >= exact / 3);
  }
}

TEST_CASE("a bordered tangent whose Schur complement vanishes is a failed factorization, not a NaN") {
  const SparseMatrix A = saddle_point_matrix(12, 3, 9);
  const SparseSystem s = to_csc(A);
  const Vector b = testing::random_vector(s.pattern.n, 10);
  const Vector c = testing::random_vector(s.pattern.n, 11);
  const Eigen::FullPivLU<Matrix> lu{Matrix(A)};
  const double d = c.dot(lu.solve(b));  // sigma = d - c.A^{-1} b = 0: [c^T d] depends on [A b]
  BorderedTangentSolver tangent(make_linear_solver(LinearSolverKind::klu), s.pattern,
                                [&] { return BorderView{as_span(b), as_span(c), d}; });
  const FactorizationStatus status = tangent.factorize(s.values, false);
  CHECK_FALSE(status.ok);
  CHECK(status.message.find("Schur complement") != std::string::npos);
  CHECK_THROWS_AS(BorderedTangentSolver(make_linear_solver(LinearSolverKind::klu), s.pattern, {}), std::invalid_argument);
  const Vector short_column = b.head(s.pattern.n - 1);
  BorderedTangentSolver mismatched(make_linear_solver(LinearSolverKind::klu), s.pattern,
                                   [&] { return BorderView{as_span(short_column), as_span(c), d}; });
  CHECK_THROWS_AS(mismatched.factorize(s.values, false), std::invalid_argument);
}

namespace {

/// A bordered nonlinear system in (x0, x1; s): R_A = (x0 - s x1 - 1, x1 + s^2 x0 - 2), phi = x0 x1 + s - 1.5.
/// Its sparse part is the 2 x 2 identity-like block dR_A/dx, the border dR_A/ds and dphi/dx.
class BorderedToy final : public NewtonSystem {
 public:
  BorderedToy() {
    pattern_.n = 2;
    pattern_.column_starts = {0, 2, 4};
    pattern_.row_indices = {0, 1, 0, 1};
  }
  const CscPattern& pattern() const override { return pattern_; }
  /// b, c and d at the x of the last evaluate with_matrix.
  BorderView border() const { return {column_, row_, corner_}; }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool with_matrix) override {
    const double s = x(2);
    residual(0) = x(0) - s * x(1) - 1.0;
    residual(1) = x(1) + s * s * x(0) - 2.0;
    residual(2) = x(0) * x(1) + s - 1.5;
    scale = x.cwiseAbs() + Vector::Constant(3, 2.0);
    floor.setZero();
    if (!with_matrix) return;
    values_ = {1.0, s * s, -s, 1.0};
    column_ = {-x(1), 2 * s * x(0)};
    row_ = {x(1), x(0)};
    corner_ = 1.0;
  }
  std::span<const double> matrix() const override { return values_; }
  std::string describe_row(Index row) const override { return "row " + std::to_string(row); }

 private:
  CscPattern pattern_;
  std::array<double, 4> values_{};
  std::array<double, 2> column_{}, row_{};
  double corner_ = 0.0;
};

}  // namespace

TEST_CASE("Newton solves a bordered system quadratically and estimates the tangent's condition") {
  BorderedToy toy;
  NewtonSolver newton(toy.pattern(), LinearSolverKind::klu, NewtonOptions{}, bordered_tangent([&toy] { return toy.border(); }));
  Vector x = Vector::Zero(3);
  x(2) = 0.5;
  const NewtonReport report = newton.solve(toy, x, "toy", true);
  Vector residual(3), scale(3), floor(3);
  toy.evaluate(x, residual, scale, floor, true);
  MESSAGE("iterations ", report.iterations, ", solution ", x.transpose(), ", condition ", report.condition_estimate);
  CHECK(residual.cwiseAbs().maxCoeff() <= 1e-13);
  CHECK(report.iterations <= 7);
  // The tangent at the solution, dense, and its exact kappa_1.
  Matrix T(3, 3);
  T << 1.0, -x(2), -x(1), x(2) * x(2), 1.0, 2 * x(2) * x(0), x(1), x(0), 1.0;
  const double exact = T.cwiseAbs().colwise().sum().maxCoeff() * T.inverse().cwiseAbs().colwise().sum().maxCoeff();
  CHECK(report.condition_estimate <= exact * 1.01);  // the last factorization is an iterate before the solution
  CHECK(report.condition_estimate >= exact / 3);
  Vector wrong(2);
  CHECK_THROWS_AS(newton.solve(toy, wrong, "toy"), std::invalid_argument);
}
