#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>
#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/viscous_damper.hpp>
#include <noether/steppers/ggl_vi.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

/// A scenario's model with a ggl-vi stepper on it, initialized.
struct Run {
  Model model;
  std::unique_ptr<GglVariationalIntegrator> stepper;
  State state;
  double h = 0.0, t_end = 0.0;  ///< the scenario's run defaults

  NewtonReport step() { return stepper->step(state, h); }
  int steps_to_end() const { return static_cast<int>(std::lround(t_end / h)); }
};

Run make_run(const std::string& scenario_name, const ParameterValues& overrides = {}, double newton_tolerance = 0.0) {
  const Scenario& scenario = find_scenario(scenario_name);
  Run run;
  run.model = scenario.build(resolve_parameters(scenario, overrides));
  StepperOptions options;
  if (newton_tolerance > 0.0) options.newton.residual_tolerance = newton_tolerance;
  run.stepper = std::make_unique<GglVariationalIntegrator>(*run.model.system, options);
  run.state = run.model.initial;
  run.stepper->initialize(run.state);
  run.h = scenario.run_defaults.h;
  run.t_end = scenario.run_defaults.t_end;
  return run;
}

/// J = sum_i x_i p_{y,i} - y_i p_{x,i} of planar point masses, q = (x1, y1, x2, y2, ...).
double angular_momentum(const State& s) {
  double J = 0.0;
  for (Index i = 0; i + 1 < s.q.size(); i += 2) J += s.q(i) * s.p(i + 1) - s.q(i + 1) * s.p(i);
  return J;
}

/// Global dense M, DV(q) and G(q) of a small system.
Matrix dense_mass(const System& system) {
  const Index d = system.num_coordinates();
  Matrix M = Matrix::Zero(d, d);
  for (const Placed<Inertia>& e : system.inertias()) {
    const auto n = static_cast<Index>(e.dofs.size());
    Matrix local = Matrix::Zero(n, n);
    e.element->add_mass_matrix(Vector::Zero(n), 1.0, local);
    for (std::size_t i = 0; i < e.dofs.size(); ++i)
      for (std::size_t j = 0; j < e.dofs.size(); ++j)
        M(e.dofs[i], e.dofs[j]) += local(static_cast<Index>(i), static_cast<Index>(j));
  }
  return M;
}

Vector potential_gradient(const System& system, const Vector& q) {
  Vector g = Vector::Zero(system.num_coordinates()), q_local;
  for (const Placed<Potential>& e : system.potentials()) {
    gather(q, e.dofs, q_local);
    Vector local = Vector::Zero(q_local.size());
    e.element->add_gradient(q_local, 1.0, local);
    for (std::size_t i = 0; i < e.dofs.size(); ++i) g(e.dofs[i]) += local(static_cast<Index>(i));
  }
  return g;
}

Matrix constraint_jacobian(const System& system, const Vector& q) {
  Matrix G = Matrix::Zero(system.num_multipliers(), system.num_coordinates());
  Vector q_local;
  for (const Placed<Constraint>& e : system.constraints()) {
    gather(q, e.dofs, q_local);
    Matrix local(e.element->num_equations(), q_local.size());
    e.element->calc_jacobian(q_local, local);
    for (Index k = 0; k < local.rows(); ++k)
      for (std::size_t j = 0; j < e.dofs.size(); ++j)
        G(e.first_multiplier + k, e.dofs[j]) = local(k, static_cast<Index>(j));
  }
  return G;
}

/// The scheme's v^n, recovered from the step's outputs through (41b) - (41c) without damping or loads:
/// M v^n = p^n - h DV(q^n) - h G(q^n)^T lambda^n.
Vector recovered_velocity(const System& system, const State& before, const State& after, double h) {
  const Vector rhs = before.p - h * potential_gradient(system, before.q) -
                     h * constraint_jacobian(system, before.q).transpose() * after.lambda;
  return dense_mass(system).ldlt().solve(rhs);
}

}  // namespace

TEST_CASE("ggl-vi holds position constraints g(q1) and velocity constraints G(qbar) M^-1 p1 every step") {
  Run run = make_run("double-pendulum");
  const System& system = *run.model.system;
  const Matrix M_inverse = dense_mass(system).inverse();
  Vector g(system.num_multipliers());
  double max_g = 0, max_gv_intermediate = 0, max_gv_node = 0;
  int max_iterations = 0;
  for (int n = 0; n < run.steps_to_end(); ++n) {
    const State before = run.state;
    max_iterations = std::max(max_iterations, run.step().iterations);
    calc_constraint_values(system, run.state.q, g);
    max_g = std::max(max_g, max_abs(g));
    const Vector q_bar = before.q + run.h * recovered_velocity(system, before, run.state, run.h);
    const Vector gv_intermediate = constraint_jacobian(system, q_bar) * M_inverse * run.state.p;
    max_gv_intermediate = std::max(max_gv_intermediate, max_abs(gv_intermediate));
    max_gv_node = std::max(max_gv_node, max_abs(constraint_jacobian(system, run.state.q) * run.state.v));
  }
  MESSAGE("max |g(q1)| ", max_g, ", max |G(qbar) M^-1 p1| ", max_gv_intermediate, ", max |G(q1) v1| ", max_gv_node,
          " (not imposed), max Newton iterations ", max_iterations);
  CHECK(max_g <= 1e-10);
  CHECK(max_gv_intermediate <= 1e-10);
  CHECK(max_iterations <= 5);
}

TEST_CASE("ggl-vi conserves angular momentum of the weightless double pendulum (decides eq. 41b: p^{n+1})") {
  const ParameterValues weightless{{"gravity", 0.0}, {"omega1_0", 2.0}, {"omega2_0", -1.0}};
  Run run = make_run("double-pendulum", weightless, 1e-12);
  run.t_end = 10.0;
  const double J0 = angular_momentum(run.state);
  double max_drift = 0;
  for (int n = 0; n < run.steps_to_end(); ++n) {
    run.step();
    max_drift = std::max(max_drift, std::abs(angular_momentum(run.state) - J0));
  }
  MESSAGE("J0 = ", J0, ", max |J - J0| over ", run.steps_to_end(), " steps: ", max_drift);
  CHECK(max_drift <= 1e-12 * std::abs(J0));
}

TEST_CASE("ggl-vi step map is symplectic on variations tangent to the constraints") {
  Run run = make_run("double-pendulum", {{"theta1_0", 1.0}, {"theta2_0", 0.3}, {"omega1_0", 0.5}}, 1e-13);
  for (int n = 0; n < 5; ++n) run.step();
  const System& system = *run.model.system;
  const Index d = system.num_coordinates();
  const Matrix G = constraint_jacobian(system, run.state.q);
  const Matrix tangent_projector = Matrix::Identity(d, d) - G.transpose() * (G * G.transpose()).ldlt().solve(G);
  const auto variation = [&](unsigned seed) {
    Vector z = testing::random_vector(2 * d, seed);
    z.head(d) = tangent_projector * z.head(d);
    return z;
  };
  const auto step_map = [&](const Vector& z) {
    State s = run.state;
    s.q = z.head(d);
    s.p = z.tail(d);
    run.stepper->step(s, run.h);
    Vector out(2 * d);
    out << s.q, s.p;
    return out;
  };
  const auto omega = [d](const Vector& a, const Vector& b) {
    return a.head(d).dot(b.tail(d)) - b.head(d).dot(a.tail(d));
  };
  Vector z(2 * d);
  z << run.state.q, run.state.p;
  const Matrix Dphi = testing::central_difference_jacobian(step_map, z, 1e-5);
  for (unsigned seed : {1u, 2u, 3u}) {
    const Vector a = variation(seed), b = variation(seed + 10);
    const double before = omega(a, b), after = omega(Dphi * a, Dphi * b);
    CAPTURE(seed);
    MESSAGE("omega(a, b) = ", before, ", change over one step ", after - before);
    // Central differences (step 1e-5) of Newton solutions (tolerance 1e-13) resolve omega to ~1e-10;
    // the misprinted eq. (41b) (M^-1 p^n) changes it by ~1e-5.
    CHECK(std::abs(after - before) <= 1e-8 * std::abs(before));
  }
}

TEST_CASE("ggl-vi energy error stays bounded: no drift over many steps") {
  Run run = make_run("double-pendulum", {{"theta1_0", 1.0}, {"theta2_0", 0.5}});
  run.t_end = 40.0;
  const double H0 = run.stepper->conserved_energy(run.state);
  const int steps = run.steps_to_end();
  double first_half = 0, second_half = 0;
  for (int n = 0; n < steps; ++n) {
    run.step();
    const double error = std::abs(run.stepper->conserved_energy(run.state) - H0);
    double& half_max = n < steps / 2 ? first_half : second_half;
    half_max = std::max(half_max, error);
  }
  MESSAGE("H0 = ", H0, ", max |H - H0|: first half ", first_half, ", second half ", second_half);
  CHECK(first_half > 0.0);
  CHECK(first_half <= 0.02 * std::abs(H0));  // an O(h) error, h = 0.01
  CHECK(second_half <= 1.5 * first_half);    // a drift would roughly double it
}

TEST_CASE("ggl-vi with viscous dampers loses energy every step (eq. 57)") {
  const Scenario& scenario = find_scenario("double-pendulum");
  Model model = scenario.build(resolve_parameters(scenario, {}));
  System& system = *model.system;
  const double c = 0.5;
  for (const char* mass : {"mass1", "mass2"})
    system.add(std::make_shared<ConstantDamping>(std::string("damper_") + mass, std::vector{system.find_block(mass)},
                                                 Matrix(c * Matrix::Identity(2, 2))));
  GglVariationalIntegrator stepper(system, {});
  State state = model.initial;
  stepper.initialize(state);
  double H = stepper.conserved_energy(state), max_increment = -1e300;
  const double H0 = H;
  for (int n = 0; n < 500; ++n) {
    stepper.step(state, 0.01);
    const double next = stepper.conserved_energy(state);
    max_increment = std::max(max_increment, next - H);
    H = next;
  }
  MESSAGE("H0 = ", H0, ", H(5 s) = ", H, ", largest step increment ", max_increment);
  CHECK(max_increment < 0.0);
}

TEST_CASE("ggl-vi gives the same motion with umfpack, klu and eigen") {
  std::vector<Vector> finals;
  for (LinearSolverKind solver : {LinearSolverKind::umfpack, LinearSolverKind::klu, LinearSolverKind::eigen}) {
    const Scenario& scenario = find_scenario("double-pendulum");
    Model model = scenario.build(resolve_parameters(scenario, {}));
    StepperOptions options;
    options.solver = solver;
    GglVariationalIntegrator stepper(*model.system, options);
    State state = model.initial;
    stepper.initialize(state);
    for (int n = 0; n < 50; ++n) stepper.step(state, 0.01);
    finals.push_back(state.q);
  }
  MESSAGE("klu - umfpack ", max_abs(finals[1] - finals[0]), ", eigen - umfpack ", max_abs(finals[2] - finals[0]));
  CHECK(max_abs(finals[1] - finals[0]) <= 1e-12);
  CHECK(max_abs(finals[2] - finals[0]) <= 1e-12);
}

TEST_CASE("ggl-vi refuses what its scheme cannot treat, naming the element and the alternative") {
  const auto refusal = [](const std::string& scenario_name, LinearSolverKind solver) {
    const Scenario& scenario = find_scenario(scenario_name);
    Model model = scenario.build(resolve_parameters(scenario, {}));
    StepperOptions options;
    options.solver = solver;
    try {
      find_stepper("ggl-vi").make(*model.system, options);
    } catch (const StepperRefusal& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string singular = refusal("singular-mass-spring", LinearSolverKind::umfpack);
  const std::string configuration = refusal("spring-pendulum", LinearSolverKind::umfpack);
  const std::string cholmod = refusal("double-pendulum", LinearSolverKind::cholmod);
  MESSAGE(singular, "\n", configuration, "\n", cholmod);
  CHECK(singular.find("inertia 'masses' is singular (rank 2 of 3); use livens-em") != std::string::npos);
  CHECK(configuration.find("inertia 'pendulum.inertia' depends on the configuration; use livens-em") != std::string::npos);
  CHECK(cholmod.find("CHOLMOD") != std::string::npos);
  CHECK(refusal("double-pendulum", LinearSolverKind::klu) == "(accepted)");
}

TEST_CASE("ggl-vi refuses constraints of general nonlinearity") {
  System system;
  const BlockId point = system.add_block("point", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("mass", std::vector{point}, Matrix(Matrix::Identity(2, 2))));
  ConstraintFunction circle;
  circle.value = [](ConstVectorRef q) { return Vector::Constant(1, q.norm() - 1.0); };
  circle.jacobian = [](ConstVectorRef q) { return Matrix(q.transpose() / q.norm()); };
  circle.hessian_contraction = [](ConstVectorRef q, ConstVectorRef lambda) {
    return Matrix(lambda(0) / q.norm() * (Matrix::Identity(2, 2) - q * q.transpose() / q.squaredNorm()));
  };
  system.add(std::make_shared<FunctionConstraint>("circle", std::vector{point}, 2, circle));
  CHECK_THROWS_WITH_AS(GglVariationalIntegrator(system, {}),
                       doctest::Contains("constraint 'circle' is of general nonlinearity; use livens-em"),
                       StepperRefusal);
}
