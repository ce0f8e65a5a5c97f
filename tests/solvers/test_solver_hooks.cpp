/// The two hooks the benchmarks use: NewtonOptions::linear_solver_factory and UMFPACK's strategy.
#include <doctest/doctest.h>

#include <noether/solvers/newton.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>

using namespace noether;

namespace {

/// The 3 x 3 saddle-point matrix [2 1 1; 1 3 0; 1 0 0] (a zero diagonal entry, so only a
/// pivoting LU solves it), stored with every entry of its pattern.
CscPattern saddle_pattern() {
  CscPattern p;
  p.n = 3;
  p.column_starts = {0, 3, 5, 7};
  p.row_indices = {0, 1, 2, 0, 1, 0, 2};
  return p;
}
const std::vector<double> kSaddleValues = {2.0, 1.0, 1.0, 1.0, 3.0, 1.0, 0.0};

/// R(x) = A x - b with A the saddle-point matrix and b = A (1, 2, 3): one Newton step solves it.
class LinearSaddle final : public NewtonSystem {
 public:
  const CscPattern& pattern() const override { return pattern_; }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool) override {
    floor.setZero();
    const Eigen::Vector3d b(7.0, 7.0, 1.0);
    residual = Eigen::Vector3d(2 * x(0) + x(1) + x(2), x(0) + 3 * x(1), x(0)) - b;
    const Vector a = x.cwiseAbs();
    scale = Eigen::Vector3d(2 * a(0) + a(1) + a(2), a(0) + 3 * a(1), a(0)) + b;  // the terms' magnitudes
  }
  std::span<const double> matrix() const override { return kSaddleValues; }
  std::string describe_row(Index row) const override { return "row " + std::to_string(row); }

 private:
  CscPattern pattern_ = saddle_pattern();
};

/// Forwards to UMFPACK (symmetric strategy) and counts the analyses.
class CountingSolver final : public LinearSolver {
 public:
  explicit CountingSolver(int& analyses) : analyses_(analyses) {}
  LinearSolverKind kind() const override { return inner_.kind(); }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override {
    ++analyses_;
    inner_.analyze_pattern(pattern);
  }
  FactorizationStatus factorize(std::span<const double> values) override { return inner_.factorize(values); }
  void solve(std::span<const double> b, std::span<double> x) override { inner_.solve(b, x); }
  void solve_transposed(std::span<const double> b, std::span<double> x) override { inner_.solve_transposed(b, x); }

 private:
  UmfpackSolver inner_{UmfpackStrategy::symmetric};
  int& analyses_;
};

}  // namespace

TEST_CASE("UMFPACK: every ordering strategy solves a saddle-point system") {
  const CscPattern pattern = saddle_pattern();
  for (UmfpackStrategy strategy : {UmfpackStrategy::automatic, UmfpackStrategy::symmetric, UmfpackStrategy::unsymmetric}) {
    UmfpackSolver solver(strategy);
    solver.analyze_pattern(pattern);
    REQUIRE(solver.factorize(kSaddleValues).ok);
    const std::vector<double> b = {7.0, 7.0, 1.0};  // A (1, 2, 3)
    std::vector<double> x(3);
    solver.solve(b, x);
    CHECK(x[0] == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(x[1] == doctest::Approx(2.0).epsilon(1e-14));
    CHECK(x[2] == doctest::Approx(3.0).epsilon(1e-14));
  }
}

TEST_CASE("Newton: linear_solver_factory supplies the linear solver, analysed once") {
  LinearSaddle system;
  int made = 0, analyses = 0;
  NewtonOptions options;
  options.linear_solver_factory = [&]() -> std::unique_ptr<LinearSolver> {
    ++made;
    return std::make_unique<CountingSolver>(analyses);
  };
  // The kind says KLU; the factory's solver (UMFPACK) wins.
  NewtonSolver newton(system.pattern(), LinearSolverKind::klu, options);
  CHECK(made == 1);
  CHECK(analyses == 1);
  CHECK(newton.solver_kind() == LinearSolverKind::umfpack);
  for (int solve = 0; solve < 2; ++solve) {
    Vector x = Vector::Zero(3);
    const NewtonReport report = newton.solve(system, x, "linear saddle");
    CHECK(report.factorizations >= 1);
    CHECK((x - Eigen::Vector3d(1.0, 2.0, 3.0)).cwiseAbs().maxCoeff() <= 1e-14);
  }
  CHECK(made == 1);
  CHECK(analyses == 1);

  NewtonOptions empty;
  empty.linear_solver_factory = [] { return std::unique_ptr<LinearSolver>(); };
  CHECK_THROWS_WITH_AS(NewtonSolver(system.pattern(), LinearSolverKind::umfpack, empty),
                       "NewtonSolver: linear_solver_factory returned no solver", std::invalid_argument);
}

TEST_CASE("Newton: a TangentSolverFactory supplies the tangent solver around the sparse one") {
  LinearSaddle system;
  int made = 0;
  const TangentSolverFactory make_tangent = [&](std::unique_ptr<LinearSolver> sparse, const CscPattern& pattern) {
    ++made;
    CHECK(sparse->kind() == LinearSolverKind::klu);  // the kind Newton was asked for
    return std::make_unique<SparseTangentSolver>(std::move(sparse), pattern);
  };
  NewtonSolver newton(system.pattern(), LinearSolverKind::klu, NewtonOptions{}, make_tangent);
  CHECK(made == 1);
  Vector x = Vector::Zero(3);
  newton.solve(system, x, "linear saddle");
  CHECK((x - Eigen::Vector3d(1.0, 2.0, 3.0)).cwiseAbs().maxCoeff() <= 1e-14);
  Vector wrong = Vector::Zero(4);
  CHECK_THROWS_WITH_AS(newton.solve(system, wrong, "linear saddle"), "NewtonSolver: made for 3 unknowns, given x of 4",
                       std::invalid_argument);

  const TangentSolverFactory none = [](std::unique_ptr<LinearSolver>, const CscPattern&) {
    return std::unique_ptr<TangentSolver>();
  };
  CHECK_THROWS_WITH_AS(NewtonSolver(system.pattern(), LinearSolverKind::klu, NewtonOptions{}, none),
                       "NewtonSolver: the tangent solver factory returned no solver", std::invalid_argument);
}
