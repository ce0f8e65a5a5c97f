#include <cmath>
#include <sstream>

#include <Eigen/Cholesky>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/planar_rod.hpp>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/projection.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

constexpr LinearSolverKind kAllBackends[] = {LinearSolverKind::cholmod, LinearSolverKind::umfpack,
                                             LinearSolverKind::klu, LinearSolverKind::eigen};


/// prefix followed by k ("rod3"); appends rather than `numbered("rod", k)`, which trips a
/// false -Wrestrict warning of GCC 12.
std::string numbered(const char* prefix, Index k) {
  std::string name = prefix;
  name += std::to_string(k);
  return name;
}

std::string format_history(const std::vector<double>& history) {
  std::ostringstream out;
  out.precision(2);
  for (double r : history) out << ' ' << std::scientific << r;
  return out.str();
}

/// A planar chain of `links` unit point masses hanging from the origin by rods of length 1,
/// stretched out to the right (x_k = k + 1, y_k = 0). A non-zero `duplicate_scale` adds
/// "rod0 again" = duplicate_scale * rod0, a redundant constraint.
System make_chain(Index links, double duplicate_scale = 0.0) {
  System system;
  std::vector<BlockId> points;
  for (Index k = 0; k < links; ++k) {
    points.push_back(system.add_block(numbered("p", k), {"x", "y"}));
    system.add(std::make_shared<ConstantInertia>(numbered("inertia", k), std::vector{points.back()},
                                                 Matrix(Matrix::Identity(2, 2))));
  }
  system.add(std::make_shared<FunctionConstraint>("rod0", std::vector{points[0]}, 2, planar_rod_constraint(1.0, true)));
  for (Index k = 1; k < links; ++k)
    system.add(std::make_shared<FunctionConstraint>(numbered("rod", k),
                                                    std::vector{points[static_cast<std::size_t>(k) - 1], points[static_cast<std::size_t>(k)]},
                                                    4, planar_rod_constraint(1.0, false)));
  if (duplicate_scale != 0.0) {
    ConstraintFunction again = planar_rod_constraint(1.0, true);
    again.value = [f = again.value, duplicate_scale](ConstVectorRef q) { return Vector(duplicate_scale * f(q)); };
    again.jacobian = [f = again.jacobian, duplicate_scale](ConstVectorRef q) { return Matrix(duplicate_scale * f(q)); };
    again.hessian_contraction = [f = again.hessian_contraction, duplicate_scale](ConstVectorRef q, ConstVectorRef l) {
      return Matrix(duplicate_scale * f(q, l));
    };
    system.add(std::make_shared<FunctionConstraint>("rod0 again", std::vector{points[0]}, 2, again));
  }
  return system;
}

Vector chain_configuration(Index links) {
  Vector q = Vector::Zero(2 * links);
  for (Index k = 0; k < links; ++k) q(2 * k) = static_cast<double>(k + 1);
  return q;
}

double max_constraint(const System& system, ConstVectorRef q) {
  Vector g(system.num_multipliers());
  calc_constraint_values(system, q, g);
  return max_abs(g);
}

double max_velocity_constraint(const System& system, ConstVectorRef q, ConstVectorRef v) {
  Vector gv(system.num_multipliers());
  calc_velocity_constraint_values(system, q, v, gv);
  return max_abs(gv);
}

/// The dense constraint Jacobian G(q) (m x d), assembled independently of the projector.
Matrix dense_jacobian(const System& system, ConstVectorRef q) {
  return testing::central_difference_jacobian(
      [&](const Vector& x) {
        Vector g(system.num_multipliers());
        calc_constraint_values(system, x, g);
        return g;
      },
      q, 1e-6);
}

struct Projected {
  Vector q, v;
  ProjectionReport positions, velocities;
};

Projected project(const System& system, const Vector& q0, const Vector& v0, LinearSolverKind kind) {
  ProjectionOptions options;
  options.solver = kind;
  ConstraintProjector projector(system, options);
  Projected out{q0, v0, {}, {}};
  out.positions = projector.project_positions(out.q);
  out.velocities = projector.project_velocities(out.q, out.v);
  return out;
}

/// Projects (q0, v0) with every backend; checks the constraints and that all backends agree.
void check_projection_on_every_backend(const System& system, const Vector& q0, const Vector& v0) {
  const Projected reference = project(system, q0, v0, LinearSolverKind::cholmod);
  for (LinearSolverKind kind : kAllBackends) {
    CAPTURE(to_string(kind));
    const Projected p = project(system, q0, v0, kind);
    MESSAGE(to_string(kind), ": max|g| history", format_history(p.positions.history));
    CHECK(max_constraint(system, p.q) <= 1e-12);
    CHECK(max_velocity_constraint(system, p.q, p.v) <= 1e-12);
    CHECK(p.positions.factorizations == p.positions.iterations);
    CHECK(p.velocities.factorizations == 1);
    CHECK((p.q - reference.q).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((p.v - reference.v).cwiseAbs().maxCoeff() <= 1e-12);
  }
}

}  // namespace

TEST_CASE("projection puts a perturbed double pendulum back on g = 0 and G v = 0 with every backend") {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {{"theta1_0", 0.4}, {"theta2_0", -0.7}}));
  const Vector q0 = model.initial.q + testing::random_vector(4, 11, 0.05);
  const Vector v0 = testing::random_vector(4, 12, 1.0);
  REQUIRE(max_constraint(*model.system, q0) > 1e-3);
  REQUIRE(max_velocity_constraint(*model.system, q0, v0) > 1e-2);
  check_projection_on_every_backend(*model.system, q0, v0);
}

TEST_CASE("projection of the singular mass-spring state (singular M, one quadratic constraint)") {
  const Scenario& scenario = find_scenario("singular-mass-spring");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  const Vector q0 = model.initial.q + testing::random_vector(3, 21, 0.1);
  const Vector v0 = testing::random_vector(3, 22, 1.0);
  REQUIRE(max_constraint(*model.system, q0) > 1e-3);
  check_projection_on_every_backend(*model.system, q0, v0);
}

TEST_CASE("projection of a 60-link chain: tridiagonal G G^T, every backend agrees") {
  const Index links = 60;
  const System system = make_chain(links);
  const Vector q0 = chain_configuration(links) + testing::random_vector(2 * links, 31, 0.02);
  const Vector v0 = testing::random_vector(2 * links, 32, 1.0);
  check_projection_on_every_backend(system, q0, v0);

  // Rod k shares a point with rods k - 1 and k + 1 only: the symbolic product is tridiagonal.
  ConstraintProjector upper(system, {});
  CHECK(upper.pattern().n == links);
  CHECK(upper.pattern().nnz() == 2 * links - 1);  // CHOLMOD reads the upper triangle only
  ProjectionOptions lu;
  lu.solver = LinearSolverKind::umfpack;
  CHECK(ConstraintProjector(system, lu).pattern().nnz() == 3 * links - 2);
}

TEST_CASE("the velocity projection is the minimum-norm correction v - G^T (G G^T)^{-1} G v") {
  const System system = make_chain(4);
  const Vector q = chain_configuration(4) + testing::random_vector(8, 41, 0.1);
  const Vector v0 = testing::random_vector(8, 42, 1.0);
  const Matrix G = dense_jacobian(system, q);  // FD of a quadratic: exact up to ~1e-10
  const Vector expected = v0 - G.transpose() * (G * G.transpose()).ldlt().solve(G * v0);
  Vector v = v0;
  project_velocities(system, q, v);
  CHECK((v - expected).cwiseAbs().maxCoeff() <= 1e-8);
}

TEST_CASE("position projection converges quadratically and its first step is the minimum-norm step") {
  const System system = make_chain(4);
  const Vector q0 = chain_configuration(4) + testing::random_vector(8, 51, 0.05);
  ProjectionOptions one_step;
  one_step.max_iterations = 1;
  one_step.tolerance = 1e-300;  // forces exactly one step, then reports non-convergence
  Vector q1 = q0;
  CHECK_THROWS_AS(project_positions(system, q1, one_step), ProjectionError);
  const Matrix G = dense_jacobian(system, q0);
  Vector g(system.num_multipliers());
  calc_constraint_values(system, q0, g);
  const Vector expected = q0 - G.transpose() * (G * G.transpose()).ldlt().solve(g);
  CHECK((q1 - expected).cwiseAbs().maxCoeff() <= 1e-8);

  Vector q = q0;
  const ProjectionReport report = project_positions(system, q);
  const std::vector<double>& r = report.history;
  REQUIRE(r.size() >= 3);
  for (std::size_t k = 0; k + 1 < r.size(); ++k) {
    CAPTURE(k);
    if (r[k + 1] > 1e-14) CHECK(r[k + 1] <= 10.0 * r[k] * r[k]);  // quadratic: r_{k+1} <= C r_k^2
  }
  CHECK(report.iterations <= 5);
}

TEST_CASE("projection analyzes the pattern once and refactorizes values in place (KLU refactor path)") {
  const System system = make_chain(20);
  ProjectionOptions options;
  options.solver = LinearSolverKind::klu;
  ConstraintProjector projector(system, options);
  Vector q = chain_configuration(20) + testing::random_vector(40, 61, 0.05);
  const ProjectionReport report = projector.project_positions(q);
  REQUIRE(report.factorizations >= 3);
  const auto& klu = dynamic_cast<const KluSolver&>(projector.linear_solver());
  CHECK(klu.refactorizations() == report.factorizations - 1);  // only the first is a fresh klu_factor
  Vector q_again = chain_configuration(20) + testing::random_vector(40, 62, 0.05);
  projector.project_positions(q_again);  // a second projection reuses pattern and analysis
  CHECK(max_constraint(system, q_again) <= 1e-12);
}

TEST_CASE("redundant constraints give a clear error naming the dependent row, with every backend") {
  // Scale 1: an exact copy, G G^T is exactly singular. Scale 0.7: G G^T is singular only up to
  // round-off, so a backend may factorize it; the eigenvalue bound must then catch it.
  for (const double duplicate_scale : {1.0, 0.7, -1.9}) {
  const System system = make_chain(3, duplicate_scale);
  Vector q0 = chain_configuration(3) + testing::random_vector(6, 71, 0.05);
  const Vector v0 = testing::random_vector(6, 72, 1.0);
  for (LinearSolverKind kind : kAllBackends) {
    CAPTURE(duplicate_scale);
    CAPTURE(to_string(kind));
    ProjectionOptions options;
    options.solver = kind;
    Vector q = q0, v = v0;
    try {
      project_positions(system, q, options);
      FAIL("no error for redundant constraints");
    } catch (const ProjectionError& e) {
      const std::string what = e.what();
      MESSAGE(what);
      CHECK(what.find("G G^T is not positive definite: the constraints are redundant or the configuration is singular") !=
            std::string::npos);
      CHECK(what.find("(column 3: constraint 'rod0 again' row 0") != std::string::npos);
      CHECK(what.find("position projection, iteration 0") != std::string::npos);
    }
    try {
      project_velocities(system, q0, v, options);
      FAIL("no error for redundant constraints");
    } catch (const ProjectionError& e) {
      CHECK(std::string(e.what()).find("constraint 'rod0 again' row 0") != std::string::npos);
    }
    CHECK(q.allFinite());
    CHECK(v.allFinite());
  }
  }
}

TEST_CASE("a singular configuration gives the same clear error (mass-spring gap closed: G = 0)") {
  const Scenario& scenario = find_scenario("singular-mass-spring");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  Vector q = model.initial.q;
  q(1) = q(0);  // q2 = x1: g = -gap^2/2 != 0 and G = (-(q2 - x1), q2 - x1, 0) = 0
  Vector v = model.initial.v;
  v(2) += 1.0;
  for (LinearSolverKind kind : kAllBackends) {
    CAPTURE(to_string(kind));
    ProjectionOptions options;
    options.solver = kind;
    Vector q_copy = q;
    CHECK_THROWS_WITH_AS(project_positions(*model.system, q_copy, options),
                         doctest::Contains("singular (column 0: constraint 'interconnection' row 0"), ProjectionError);
    // G v = 0 holds for every v here; the rank is checked all the same.
    Vector v_copy = v;
    CHECK_THROWS_WITH_AS(project_velocities(*model.system, q, v_copy, options),
                         doctest::Contains("singular (column 0: constraint 'interconnection' row 0"), ProjectionError);
  }
}

TEST_CASE("projection refuses bad input and reports non-convergence with the worst constraint row") {
  const System system = make_chain(3);
  Vector short_q = Vector::Zero(5);
  CHECK_THROWS_AS(project_positions(system, short_q), std::invalid_argument);
  Vector v = Vector::Zero(6);
  CHECK_THROWS_AS(project_velocities(system, short_q, v), std::invalid_argument);
  ProjectionOptions bad;
  bad.tolerance = 0.0;
  CHECK_THROWS_AS(ConstraintProjector(system, bad), std::invalid_argument);
  bad = {};
  bad.max_iterations = 0;
  CHECK_THROWS_AS(ConstraintProjector(system, bad), std::invalid_argument);

  ProjectionOptions two_steps;
  two_steps.max_iterations = 2;
  Vector q = chain_configuration(3);
  q(5) += 0.5;  // lift the last point: rod2 is violated most
  CHECK_THROWS_WITH_AS(project_positions(system, q, two_steps),
                       doctest::Contains("did not reach max|g| <= 1.000e-12 in 2 iterations; max|g| history"),
                       ProjectionError);
  Vector q_nan = chain_configuration(3);
  q_nan(4) = std::nan("");  // p2.x: only rod2 sees it
  // The rank check at q comes first: it meets the NaN in G and names the same row.
  CHECK_THROWS_WITH_AS(project_positions(system, q_nan),
                       doctest::Contains("non-finite entry in constraint 'rod2' row 0 at coordinate p"),
                       ProjectionError);
}

TEST_CASE("projection of a system without constraints changes nothing") {
  System system;
  const BlockId b = system.add_block("point", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("inertia", std::vector{b}, Matrix(Matrix::Identity(2, 2))));
  Vector q = Vector::Ones(2), v = Vector::Ones(2);
  CHECK(project_positions(system, q).iterations == 0);
  CHECK(project_velocities(system, q, v).iterations == 0);
  CHECK(q == Vector::Ones(2));
  CHECK(v == Vector::Ones(2));
}

TEST_CASE("projection checks the rank at q whatever v is, v = 0 and q on the constraints included") {
  // Two rods holding one point at distance 1 from the origin: the same equation twice.
  System system;
  const BlockId b = system.add_block("p", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("inertia", std::vector{b}, Matrix(Matrix::Identity(2, 2))));
  for (const char* name : {"rod", "rod again"}) {
    ConstraintFunction rod;
    rod.nonlinearity = Nonlinearity::quadratic;
    rod.value = [](ConstVectorRef q) { return Vector::Constant(1, 0.5 * (q.squaredNorm() - 1.0)); };
    rod.jacobian = [](ConstVectorRef q) { return Matrix(q.transpose()); };
    rod.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) { return Matrix(lambda(0) * Matrix::Identity(2, 2)); };
    system.add(std::make_shared<FunctionConstraint>(name, std::vector{b}, 2, rod));
  }
  Vector q = Vector::Unit(2, 0), v = Vector::Zero(2);  // on the constraints, at rest
  CHECK_THROWS_WITH_AS(project_velocities(system, q, v), doctest::Contains("constraint 'rod again' row 0 depends on"),
                       ProjectionError);
  CHECK_THROWS_WITH_AS(project_positions(system, q), doctest::Contains("constraint 'rod again' row 0 depends on"),
                       ProjectionError);
}
