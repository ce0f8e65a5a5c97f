/// lobatto4, the Lobatto IIIA-IIIB pair for holonomic constraints (steppers/lobatto4.hpp): its
/// observed order on point masses, director bodies and forces, the invariants it keeps, its
/// symmetry, Newton on its step equations, its linear stability, and what it refuses.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/measures.hpp>
#include <noether/joints/applied_loads.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/constraint_residuals.hpp"
#include "support/driven_bar.hpp"
#include "support/newton_convergence.hpp"

using namespace noether;

namespace {

StepperOptions tight_newton() {
  StepperOptions options;
  options.newton.residual_tolerance = 1e-14;
  return options;
}

Model scenario_model(const std::string& name, const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(name);
  return scenario.build(resolve_parameters(scenario, overrides));
}

/// The state after advancing `model` by lobatto4 with step h to t_end.
State advanced(const Model& model, double h, double t_end) {
  const std::unique_ptr<Stepper> stepper = find_stepper("lobatto4").make(*model.system, tight_newton());
  State state = model.initial;
  stepper->initialize(state);
  for (long n = std::lround(t_end / h); n > 0; --n) stepper->step(state, h);
  return state;
}

/// (q, p) at t_end of a run with step h (2d).
Vector end_point(const Model& model, double h, double t_end) {
  const State state = advanced(model, h, t_end);
  Vector y(2 * state.q.size());
  y << state.q, state.p;
  return y;
}

/// The observed order of (q, p)(t_end) from the differences between runs with h/2, h/4 and h/8.
double observed_order(const std::string& label, const Model& model, double h, double t_end) {
  const Vector y2 = end_point(model, h / 2, t_end), y4 = end_point(model, h / 4, t_end),
               y8 = end_point(model, h / 8, t_end);
  const double e1 = (y2 - y4).cwiseAbs().maxCoeff(), e2 = (y4 - y8).cwiseAbs().maxCoeff();
  MESSAGE("lobatto4 on ", label, ": differences of (q, p) ", e1, ", ", e2, ", observed order ", std::log2(e1 / e2));
  return std::log2(e1 / e2);
}

/// A planar point of mass 1.5 on a spring to the origin, slowed by an axial damper to a ground
/// point and pushed by F(t) = (2 cos 3t, 1): the forces of the discrete Lagrange-d'Alembert principle.
Model forced_point() {
  Mechanism mechanism;
  const BodyRef body = mechanism.add_planar_point_mass("mass", 1.5, Eigen::Vector2d(1.0, 0.0), Eigen::Vector2d(0.0, 0.8));
  const ForcePointPair to_origin(body, Vector::Zero(2), Vector(Eigen::Vector2d::Zero()));
  mechanism.add(std::make_shared<PointSpring>("spring", to_origin, linear_spring_law(4.0, 0.0)));
  const ForcePointPair to_anchor(body, Vector::Zero(2), Vector(Eigen::Vector2d(0.5, -2.0)));
  mechanism.add(std::make_shared<AxialPointDamper>("damper", to_anchor, 0.7));
  mechanism.add(std::make_shared<PointForce>("push", body, Vector::Zero(2),
                                             [](double t) { return Vector(Eigen::Vector2d(2.0 * std::cos(3.0 * t), 1.0)); }));
  Model model;
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  return model;
}

}  // namespace

TEST_CASE("lobatto4 converges at order 4: point masses, planar and 3D director bodies, dampers and loads") {
  // [Jay1996]: the three-stage Lobatto IIIA-IIIB pair is of order 4 in q and p. A scheme of order
  // 2 or a quadrature that missed a node's force would show 2 here.
  CHECK(std::abs(observed_order("the double pendulum", scenario_model("double-pendulum"), 0.04, 0.5) - 4.0) <= 0.2);
  CHECK(std::abs(observed_order("the double four-bar", scenario_model("double-fourbar"), 0.04, 0.5) - 4.0) <= 0.2);
  // The top spins at 136 rad/s: steps of 0.01 turn its directors by 1.4 rad, more than the quadratic
  // curve of a step resolves (a step of 0.02 fails and is refined), so its halvings start at 0.005.
  CHECK(std::abs(observed_order("the top", scenario_model("top"), 0.01, 0.25) - 4.0) <= 0.2);
  CHECK(std::abs(observed_order("a pushed, damped point", forced_point(), 0.2, 2.0) - 4.0) <= 0.2);
}

TEST_CASE("lobatto4 keeps g(q) = 0, G(q) v = 0 and the angular momentum of a system symmetric about the origin") {
  // Without gravity the double pendulum is symmetric under rotations about its pivot, the origin;
  // the quadratic curve through rotated nodes is the rotated curve, so L_d is symmetric too and
  // J = sum x p_y - y p_x is conserved exactly (discrete Noether theorem).
  const Model model = scenario_model("double-pendulum", {{"gravity", 0.0}, {"omega1_0", 1.0}, {"omega2_0", -2.0}});
  const auto angular_momentum = [](const State& s) {
    return s.q(0) * s.p(1) - s.q(1) * s.p(0) + s.q(2) * s.p(3) - s.q(3) * s.p(2);
  };
  const std::unique_ptr<Stepper> stepper = find_stepper("lobatto4").make(*model.system, tight_newton());
  State state = model.initial;
  stepper->initialize(state);
  const double j0 = angular_momentum(state);
  double drift = 0.0;
  testing::ConstraintResiduals residuals;
  for (int n = 0; n < 200; ++n) {
    stepper->step(state, 0.05);
    drift = std::max(drift, std::abs(angular_momentum(state) - j0));
    residuals.add(*model.system, state);
  }
  MESSAGE("angular momentum drift ", drift, " of ", j0, ", max|g| ", residuals.position, ", max|G v| ", residuals.velocity);
  CHECK(residuals.position <= 1e-13);
  CHECK(residuals.velocity <= 1e-12);
  CHECK(drift <= 1e-12);
}

TEST_CASE("lobatto4's energy error is O(h^4) and does not drift") {
  // Symplectic, not energy-exact: the error oscillates, bounded, at h^4 times a constant.
  const Model model = scenario_model("double-pendulum");
  const auto worst_energy_error = [&](double h, double t_begin, double t_end) {
    const std::unique_ptr<Stepper> stepper = find_stepper("lobatto4").make(*model.system, tight_newton());
    State state = model.initial;
    stepper->initialize(state);
    const double e0 = stepper->conserved_energy(state);
    double worst = 0.0;
    for (long n = std::lround(t_end / h); n > 0; --n) {
      stepper->step(state, h);
      if (state.t >= t_begin) worst = std::max(worst, std::abs(stepper->conserved_energy(state) - e0));
    }
    return worst;
  };
  const double coarse = worst_energy_error(0.02, 0.0, 10.0), fine = worst_energy_error(0.01, 0.0, 10.0);
  const double late = worst_energy_error(0.02, 10.0, 20.0);
  MESSAGE("max |E - E0| over 0-10 s: ", coarse, " (h = 0.02), ", fine, " (h = 0.01); over 10-20 s ", late,
          " (h = 0.02)");
  CHECK(std::abs(std::log2(coarse / fine) - 4.0) <= 0.5);
  CHECK(late <= 2.0 * coarse);  // no drift: a drifting error would grow with t
}

TEST_CASE("lobatto4 is symmetric: a step back from where a step forward ended returns to its start") {
  const Model model = scenario_model("double-fourbar");
  const std::unique_ptr<Stepper> stepper = find_stepper("lobatto4").make(*model.system, tight_newton());
  State state = model.initial;
  stepper->initialize(state);
  for (int n = 0; n < 10; ++n) stepper->step(state, 0.05);
  const State start = state;
  stepper->step(state, 0.05);
  stepper->step(state, -0.05);
  const double q_error = (state.q - start.q).cwiseAbs().maxCoeff(), p_error = (state.p - start.p).cwiseAbs().maxCoeff();
  MESSAGE("after +h and -h: max|q - q0| ", q_error, ", max|p - p0| ", p_error);
  CHECK(q_error <= 1e-12);
  CHECK(p_error <= 1e-11);
}

TEST_CASE("lobatto4 on every element kind: Newton converges quadratically, so its tangent is exact") {
  // testing::measure_quadratic_convergence: an exact tangent keeps C = r_{k+1} / r_k^2 near the
  // problem's curvature (0.01-0.02 measured); a wrong entry makes it >= 1e3 times the contraction.
  const Model model = testing::driven_bar(2.0);
  const std::unique_ptr<Stepper> stepper = find_stepper("lobatto4").make(*model.system, StepperOptions{});
  State state = model.initial;
  stepper->initialize(state);
  const testing::QuadraticConvergence c = testing::measure_quadratic_convergence(*stepper, state, 0.05, 40);
  MESSAGE("largest quadratic constant ", c.worst, " over ", c.full_steps, " full Newton steps, iterations <= ",
          c.max_iterations);
  CHECK(c.full_steps >= 10);
  CHECK(c.worst <= 1.0);
  CHECK(c.max_iterations <= 6);
}

TEST_CASE("lobatto4 on the harmonic oscillator: the one-step map of steppers/lobatto4.hpp, stable only for "
          "h omega < 2 sqrt 2 and between 2 sqrt 3 and 2 sqrt 6") {
  // omega = 1 (k = m = 1, no damping, so p = v). The columns of the map (q0, p0) -> (q1, p1) are
  // the steps from (1, 0) and (0, 1); the half-trace is the closed form of the header, which a
  // wrong node weight or kinetic coupling would change, and the determinant 1 (the map is symplectic).
  const auto oscillator = [](double q0, double v0) {
    return scenario_model("damped-oscillator", {{"zeta", 0.0}, {"q0", q0}, {"v0", v0}});
  };
  const auto one_step = [&](double h, double q0, double v0) {
    const State state = advanced(oscillator(q0, v0), h, h);
    return Eigen::Vector2d(state.q(0), state.p(0));
  };
  const auto map_at = [&](double x) {
    Eigen::Matrix2d map;
    map << one_step(x, 1.0, 0.0), one_step(x, 0.0, 1.0);
    return map;
  };
  for (const double x : {0.5, 1.0, 2.0, 2.7, 3.0, 3.3, 4.0, 4.8, 5.5}) {
    const Eigen::Matrix2d map = map_at(x);
    const double half_trace = map.trace() / 2, expected = (std::pow(x, 4) - 22 * x * x + 48) / (2 * (x * x + 24));
    MESSAGE("h omega = ", x, ": tr/2 = ", half_trace, " (closed form ", expected, "), det = ", map.determinant());
    // The step is linear, one Newton solve: its map carries rounding only (1e-16 relative).
    CHECK(std::abs(half_trace - expected) <= 1e-12);
    CHECK(std::abs(map.determinant() - 1.0) <= 1e-12);
  }
  // The same seen in a run of 100 steps from (q, p) = (1, 0). Where |tr/2| < 1 the map is
  // V diag(e^{i theta}, e^{-i theta}) V^{-1}, so |q| stays within cond(V) = ||V|| ||V^{-1}|| of the
  // start (the factor 1 + 1e-9 leaves room for the rounding of 100 steps); where |tr/2| > 1 it grows
  // (at 3.2, tr/2 = -1.058: by 1.40 per step).
  const auto q_after_100_steps = [&](double h) { return std::abs(advanced(oscillator(1.0, 0.0), h, 100 * h).q(0)); };
  for (const double x : {2.7, 4.0}) {
    const Eigen::ComplexEigenSolver<Eigen::Matrix2cd> eigen(map_at(x).cast<std::complex<double>>());
    const Eigen::JacobiSVD<Eigen::Matrix2cd> svd(eigen.eigenvectors());
    const double bound = svd.singularValues()(0) / svd.singularValues()(1), q = q_after_100_steps(x);
    MESSAGE("h omega = ", x, ": |q| after 100 steps ", q, ", bound cond(V) = ", bound);
    CHECK(q <= bound * (1 + 1e-9));
  }
  const double unstable = q_after_100_steps(3.2);
  MESSAGE("h omega = 3.2: |q| after 100 steps ", unstable);
  CHECK(unstable >= 1e6);
}

TEST_CASE("lobatto4 refuses a configuration-dependent mass matrix, naming the element and the alternative") {
  const Model model = scenario_model("spring-pendulum");
  CHECK_THROWS_WITH_AS(find_stepper("lobatto4").make(*model.system, StepperOptions{}),
                       doctest::Contains("lobatto4 needs a constant invertible mass matrix"), StepperRefusal);
}
