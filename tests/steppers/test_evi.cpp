/// evi, the exponential variational integrator (steppers/evi.hpp): its quadrature and
/// interpolation, its step equations against the derivatives of its discrete Lagrangian, the
/// invariants it keeps and breaks, and its observed order against S, omega and h.
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/viscous_damper.hpp>
#include <noether/engine/external_load.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/exponential_interpolation.hpp>
#include <noether/steppers/lobatto.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/constraint_residuals.hpp"

using namespace noether;

namespace {

StepperOptions evi_options(double points, double omega) {
  StepperOptions options;
  options.newton.residual_tolerance = 1e-14;
  options.scheme_parameters = {{"S", points}, {"omega", omega}};
  return options;
}

Model build(const std::string& scenario_name, const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(scenario_name);
  return scenario.build(resolve_parameters(scenario, overrides));
}

Vector final_configuration(const std::string& scenario, double points, double omega, double h, double t_end) {
  const Model model = build(scenario);
  const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(*model.system, evi_options(points, omega));
  State state = model.initial;
  stepper->initialize(state);
  for (long n = std::lround(t_end / h); n > 0; --n) stepper->step(state, h);
  return state.q;
}

/// The observed order from h/2 to h/4 to h/8 (differences of q(T) between successive halvings).
double observed_order(const std::string& scenario, double points, double omega, double h, double t_end) {
  const Vector q2 = final_configuration(scenario, points, omega, h / 2, t_end),
               q4 = final_configuration(scenario, points, omega, h / 4, t_end),
               q8 = final_configuration(scenario, points, omega, h / 8, t_end);
  const double e1 = (q2 - q4).cwiseAbs().maxCoeff(), e2 = (q4 - q8).cwiseAbs().maxCoeff();
  MESSAGE("evi S = ", points, ", omega = ", omega, " on ", scenario, ": differences ", e1, ", ", e2,
          ", observed order ", std::log2(e1 / e2));
  return std::log2(e1 / e2);
}

/// L_d(q0, q1) = h sum_j w_j L(q^j, v^j) written out from eqs. (11)-(16) of [Kosmas2020] with the
/// plain sines (independent of steppers/exponential_interpolation.cpp).
double discrete_lagrangian(const System& system, const QuadratureRule& rule, double u, double h, const Vector& q0,
                           const Vector& q1) {
  double sum = 0.0;
  for (std::size_t j = 0; j < rule.nodes.size(); ++j) {
    const double tau = rule.nodes[j];
    const double g1 = u == 0 ? 1 - tau : std::sin((1 - tau) * u) / std::sin(u);
    const double g2 = u == 0 ? tau : std::sin(tau * u) / std::sin(u);
    const double g1_dot = u == 0 ? -1 / h : -u / h * std::cos((1 - tau) * u) / std::sin(u);
    const double g2_dot = u == 0 ? 1 / h : u / h * std::cos(tau * u) / std::sin(u);
    const Vector q = g1 * q0 + g2 * q1, v = g1_dot * q0 + g2_dot * q1;
    sum += rule.weights[j] * (kinetic_energy(system, q, v) - potential_energy(system, q));
  }
  return h * sum;
}

/// V = k/2 |x|^2 on a planar point: a linear spring to the origin.
class CentralSpring final : public Potential {
 public:
  CentralSpring(std::string name, BlockId point, double k) : Potential(std::move(name), {point}), k_(k) {}
  Index local_size() const override { return 2; }

 protected:
  double do_energy(ConstVectorRef q) const override { return 0.5 * k_ * q.squaredNorm(); }
  void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const override { g += s * k_ * q; }
  void do_add_hessian(ConstVectorRef, double s, MatrixRef K) const override { K.diagonal().array() += s * k_; }

 private:
  double k_;
};

/// f(t) = F0 cos(Omega t) along the first coordinate of a point: a load given in time.
class CosineForce final : public ExternalLoad {
 public:
  CosineForce(std::string name, BlockId point, double amplitude, double frequency)
      : ExternalLoad(std::move(name), {point}), amplitude_(amplitude), frequency_(frequency) {}
  Index local_size() const override { return 2; }
  bool depends_on_configuration() const override { return false; }

 protected:
  void do_add_generalized_force(double t, ConstVectorRef, double s, VectorRef f) const override {
    f(0) += s * amplitude_ * std::cos(frequency_ * t);
  }
  void do_add_generalized_force_q_jacobian(double, ConstVectorRef, double, MatrixRef) const override {}

 private:
  double amplitude_, frequency_;
};

/// The error at t = 1 of evi (S = 3, omega = 0) on a point of mass 2 started at the origin with
/// velocity (1, 1) under `add_forces`, against the exact position.
template <class AddForces, class Exact>
double forced_error(double h, AddForces add_forces, Exact exact) {
  System system;
  const BlockId point = system.add_block("point", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("point.mass", std::vector{point}, 2.0 * Matrix::Identity(2, 2)));
  add_forces(system, point);
  const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(system, evi_options(3, 0.0));
  State state;
  state.q = Eigen::Vector2d(0.0, 0.0);
  state.v = Eigen::Vector2d(1.0, 1.0);
  stepper->initialize(state);
  for (long n = std::lround(1.0 / h); n > 0; --n) stepper->step(state, h);
  return (state.q - exact(1.0)).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("evi takes loads and dampers by the discrete Lagrange-d'Alembert principle, at order 2") {
  // m x'' = F0 cos(W t): x = t + F0/(m W^2) (1 - cos W t), y = t.
  const double m = 2.0, F0 = 3.0, W = 5.0, c = 0.8;
  const auto load = [&](System& s, BlockId p) { s.add(std::make_shared<CosineForce>("load", p, F0, W)); };
  const auto loaded = [&](double t) {
    return Vector(Eigen::Vector2d(t + F0 / (m * W * W) * (1 - std::cos(W * t)), t));
  };
  // A constant force (W = 0) is integrated exactly: f_d^- = f_d^+ = h F/2 and the motion is quadratic.
  const auto constant_load = [&](System& s, BlockId p) { s.add(std::make_shared<CosineForce>("load", p, F0, 0.0)); };
  const auto constant_loaded = [&](double t) { return Vector(Eigen::Vector2d(t + F0 / (2 * m) * t * t, t)); };
  CHECK(forced_error(0.1, constant_load, constant_loaded) <= 1e-13);
  // m x'' = -c x': x = y = m/c (1 - exp(-c t/m)).
  const auto damper = [&](System& s, BlockId p) { s.add(std::make_shared<ConstantDamping>("damper", std::vector{p}, Matrix(c * Matrix::Identity(2, 2)))); };
  const auto damped = [&](double t) { return Vector(Vector::Constant(2, m / c * (1 - std::exp(-c * t / m)))); };
  const double damper_order = std::log2(forced_error(0.02, damper, damped) / forced_error(0.01, damper, damped));
  const double load_order = std::log2(forced_error(0.02, load, loaded) / forced_error(0.01, load, loaded));
  MESSAGE("observed orders from h = 0.02 to 0.01: damper ", damper_order, ", load ", load_order);
  CHECK(std::abs(damper_order - 2.0) <= 0.05);
  // A load of t alone on a free point: p1 - p0 = h sum_j w_j f(t^j), Simpson's rule for S = 3,
  // so the motion comes out at order 4 (4.0005 measured); at least 2 holds for every load.
  CHECK(load_order >= 1.95);
}

TEST_CASE("Gauss-Lobatto rules hold the end points, are symmetric and exact to degree 2S - 3 only") {
  for (int points = 2; points <= 8; ++points) {
    CAPTURE(points);
    const QuadratureRule rule = lobatto_rule(points);
    CHECK(rule.nodes.front() == 0.0);
    CHECK(rule.nodes.back() == 1.0);
    for (std::size_t j = 0; j < rule.nodes.size(); ++j) {
      CHECK(std::abs(rule.nodes[j] + rule.nodes[rule.nodes.size() - 1 - j] - 1.0) <= 1e-16);
      CHECK(rule.weights[j] == rule.weights[rule.weights.size() - 1 - j]);
      CHECK(rule.weights[j] > 0.0);
    }
    const auto integral_error = [&](int degree) {  // of c^degree over [0, 1], exactly 1/(degree + 1)
      double sum = 0.0;
      for (std::size_t j = 0; j < rule.nodes.size(); ++j) sum += rule.weights[j] * std::pow(rule.nodes[j], degree);
      return std::abs(sum - 1.0 / (degree + 1));
    };
    for (int degree = 0; degree <= 2 * points - 3; ++degree) CHECK(integral_error(degree) <= 1e-14);
    CHECK(integral_error(2 * points - 2) >= 1e-12);  // 6.5e-9 for 8 points: well above rounding
  }
  CHECK_THROWS_AS(lobatto_rule(1), std::invalid_argument);
  CHECK_THROWS_AS(lobatto_rule(65), std::invalid_argument);
}

TEST_CASE("the exponential interpolation: continuity (15), the sine formulas, and u -> 0 without cancellation") {
  const QuadratureRule rule = lobatto_rule(5);
  for (double u : {0.0, 1e-9, 0.7, 2.5}) {
    CAPTURE(u);
    const std::vector<InterpolationNode> nodes = exponential_interpolation(rule, u);
    CHECK(nodes.front().g1 == 1.0);  // g1(t_k) = 1, g2(t_k) = 0
    CHECK(nodes.front().g2 == 0.0);
    CHECK(std::abs(nodes.back().g1) <= 1e-16);  // g1(t_k+1) = 0, g2(t_k+1) = 1
    CHECK(std::abs(nodes.back().g2 - 1.0) <= 1e-15);
    for (const InterpolationNode& n : nodes) {
      const double tau = n.tau;
      if (u > 0.1) {  // the plain formulas are accurate here
        CHECK(std::abs(n.g1 - std::sin((1 - tau) * u) / std::sin(u)) <= 1e-15);
        CHECK(std::abs(n.g2 - std::sin(tau * u) / std::sin(u)) <= 1e-15);
        CHECK(std::abs(n.g1_rate + u * std::cos((1 - tau) * u) / std::sin(u)) <= 1e-14);
        CHECK(std::abs(n.g2_rate - u * std::cos(tau * u) / std::sin(u)) <= 1e-14);
      } else {  // u -> 0: linear interpolation, to rounding
        CHECK(std::abs(n.g1 - (1 - tau)) <= 1e-15);
        CHECK(std::abs(n.g2 - tau) <= 1e-15);
        CHECK(std::abs(n.g1_rate + 1.0) <= 1e-15);
        CHECK(std::abs(n.g2_rate - 1.0) <= 1e-15);
      }
      CHECK(std::abs(n.sum_rate - (n.g1_rate + n.g2_rate)) <= 1e-14);
    }
  }
  // h (g1' + g2') = (cos(tau u) - cos((1 - tau) u)) / sinc u is O(u^2): at u = 1e-5 the difference
  // of the cosines in double keeps about 6 digits; the product of sines keeps them all. Reference:
  // the series 2 sin(u/2) sin((1/2 - tau) u) / sinc u = (1/2 - tau) u^2 (1 + u^2 (3 - (1 - 2 tau)^2)/24 + O(u^4)).
  const double u = 1e-5, tau = rule.nodes[1];
  const double series = (0.5 - tau) * u * u * (1 + u * u * (3 - (1 - 2 * tau) * (1 - 2 * tau)) / 24);
  const double computed = exponential_interpolation(rule, u)[1].sum_rate;
  CHECK(std::abs(computed - series) <= 1e-14 * std::abs(series));
  CHECK(sinc(0.0) == 1.0);
}

TEST_CASE("an evi step solves p0 = -D_1 L_d(q0, q1) and returns p1 = D_2 L_d(q0, q1), L_d differentiated numerically") {
  // The spring pendulum: no constraints, M(q) and V(q) nonlinear, so every kernel path of the
  // unconstrained equations enters. q1 is chosen; p0 is made by central differences of L_d; the
  // step must land on q1, and its p1 must be the difference quotient of L_d in q1.
  const Model model = build("spring-pendulum");
  const System& system = *model.system;
  for (double points : {1.0, 3.0}) {
    for (double omega : {0.0, 9.0}) {
      CAPTURE(points);
      CAPTURE(omega);
      const double h = 0.05, u = omega * h, step = 1e-6;
      const QuadratureRule rule = points == 1.0 ? QuadratureRule{{0.5}, {1.0}} : lobatto_rule(3);
      State state = model.initial;
      const Vector q0 = state.q;
      const Vector q1 = q0 + h * Vector::LinSpaced(q0.size(), 0.3, -0.2);
      const Index d = q0.size();
      Vector d1(d), d2(d);
      for (Index i = 0; i < d; ++i) {
        const Vector e = Vector::Unit(d, i) * step;
        d1(i) = (discrete_lagrangian(system, rule, u, h, q0 + e, q1) -
                 discrete_lagrangian(system, rule, u, h, q0 - e, q1)) / (2 * step);
        d2(i) = (discrete_lagrangian(system, rule, u, h, q0, q1 + e) -
                 discrete_lagrangian(system, rule, u, h, q0, q1 - e)) / (2 * step);
      }
      const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(system, evi_options(points, omega));
      stepper->initialize(state);
      state.p = -d1;
      stepper->step(state, h);
      CHECK((state.q - q1).cwiseAbs().maxCoeff() <= 1e-8);   // central differences: ~1e-10 error
      CHECK((state.p - d2).cwiseAbs().maxCoeff() <= 1e-7 * (1.0 + d2.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("evi keeps g(q) = 0, G(q) v = 0 and the angular momentum of a system symmetric about the origin") {
  // The double pendulum without gravity is symmetric under rotations about its pivot, the origin.
  // The interpolation q^j = g1 q0 + g2 q1 commutes with them for every omega, so the discrete
  // Lagrangian is symmetric too, and J = sum x p_y - y p_x is conserved exactly.
  const Model model = build("double-pendulum", {{"gravity", 0.0}, {"omega1_0", 1.0}, {"omega2_0", -2.0}});
  const auto angular_momentum = [](const State& s) {
    return s.q(0) * s.p(1) - s.q(1) * s.p(0) + s.q(2) * s.p(3) - s.q(3) * s.p(2);
  };
  for (double omega : {0.0, 3.0}) {
    CAPTURE(omega);
    const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(*model.system, evi_options(3, omega));
    State state = model.initial;
    stepper->initialize(state);
    const double j0 = angular_momentum(state);
    double drift = 0.0;
    testing::ConstraintResiduals residuals;
    for (int n = 0; n < 100; ++n) {
      stepper->step(state, 0.02);
      drift = std::max(drift, std::abs(angular_momentum(state) - j0));
      residuals.add(*model.system, state);
    }
    MESSAGE("omega = ", omega, ": angular momentum drift ", drift, ", max|g| ", residuals.position, ", max|G v| ",
            residuals.velocity);
    CHECK(residuals.position <= 1e-13);
    CHECK(residuals.velocity <= 1e-12);
    CHECK(drift <= 1e-12);
  }
}

TEST_CASE("evi converges at order 2 for every S and omega: point masses, M(q), director bodies") {
  // Two end points are the curve's only unknowns, so no quadrature raises the order (evi.hpp).
  for (double points : {1.0, 3.0})
    for (double omega : {0.0, 3.0}) CHECK(std::abs(observed_order("double-pendulum", points, omega, 0.04, 0.5) - 2.0) <= 0.05);
  CHECK(std::abs(observed_order("spring-pendulum", 2, 0.0, 0.04, 0.5) - 2.0) <= 0.1);  // M(q)
  CHECK(std::abs(observed_order("double-fourbar", 3, 3.0, 0.02, 0.5) - 2.0) <= 0.05);  // planar director bodies
}

TEST_CASE("with omega the motion's frequency, evi is exact to the quadrature on a harmonic motion") {
  // A point of mass m on a linear spring to the origin, V = k/2 |x|^2, started on its circle:
  // x(t) = (cos omega t, sin omega t), omega = sqrt(k/m), which the interpolation with u = omega h
  // spans; only the quadrature of the trigonometric integrands is left. Linear interpolation
  // (omega = 0) has its O(h^2) phase error.
  const double m = 2.0, k = 8.0, omega = std::sqrt(k / m), h = 2 * std::numbers::pi / omega / 16;
  System system;
  const BlockId point = system.add_block("point", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("point.mass", std::vector{point}, m * Matrix::Identity(2, 2)));
  system.add(std::make_shared<CentralSpring>("spring", point, k));
  const auto error = [&](double frequency) {
    const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(system, evi_options(4, frequency));
    State state;
    state.q = Eigen::Vector2d(1.0, 0.0);
    state.v = Eigen::Vector2d(0.0, omega);
    stepper->initialize(state);
    for (int n = 0; n < 16 * 5; ++n) stepper->step(state, h);
    return (state.q - Vector(Eigen::Vector2d(1.0, 0.0))).norm();  // back at the start after 5 periods
  };
  const double linear = error(0.0), fitted = error(omega);
  MESSAGE("5 periods of 16 steps, S = 4: error ", linear, " with omega = 0, ", fitted, " with omega = sqrt(k/m)");
  CHECK(fitted <= 1e-6 * linear);
}

TEST_CASE("midpoint-vi is evi with S = 1 and omega = 0, to the bit, and takes no parameters") {
  const Model model = build("double-fourbar", {{"damping", 0.5}});
  StepperOptions options;
  options.newton.residual_tolerance = 1e-14;  // as evi_options
  const std::unique_ptr<Stepper> midpoint = find_stepper("midpoint-vi").make(*model.system, options);
  const std::unique_ptr<Stepper> exponential = find_stepper("evi").make(*model.system, evi_options(1, 0.0));
  CHECK(midpoint->name() == "midpoint-vi");
  State a = model.initial, b = model.initial;
  midpoint->initialize(a);
  exponential->initialize(b);
  for (int n = 0; n < 20; ++n) {
    midpoint->step(a, 0.01);
    exponential->step(b, 0.01);
  }
  CHECK(a.q == b.q);
  CHECK(a.p == b.p);
  options.scheme_parameters = {{"S", 3.0}};
  CHECK_THROWS_WITH_AS(find_stepper("midpoint-vi").make(*model.system, options),
                       "midpoint-vi has no parameter 'S'; it takes none", std::invalid_argument);
}

TEST_CASE("evi refuses a quadrature count that is not whole, showing every digit of it") {
  const Model model = build("double-pendulum");
  for (const auto& [points, shown] : {std::pair{2.5, "2.5"}, {2.0000001, "2.0000001"}, {0.0, "0"}, {65.0, "65"}}) {
    const double points_value = points;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(points_value);
    const std::string expected =
        std::string("evi: S (quadrature points per step) must be a whole number from 1 to 64, got ") + shown;
    CHECK_THROWS_WITH_AS(find_stepper("evi").make(*model.system, evi_options(points, 0.0)), expected.c_str(),
                         std::invalid_argument);
  }
}

TEST_CASE("evi's refusal of |omega h| >= pi gives a bound the step can take") {
  // With omega = pi/h it said "take |h| < pi/omega = 0.01" to a run of h = 0.01: the bound is
  // strict, and pi/omega rounds to h itself.
  const Model model = build("double-pendulum");
  const double h = 0.01, omega = std::numbers::pi / h;
  const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(*model.system, evi_options(2, omega));
  State state = model.initial;
  stepper->initialize(state);
  CHECK_THROWS_WITH_AS(stepper->step(state, h),
                       "evi: the interpolation needs |omega h| < pi (sin(omega h) != 0), got omega = 314.1592653589793 "
                       "and h = 0.01; take |h| < pi/omega, strictly: |h| <= 0.009999999999999998, or a smaller omega",
                       std::invalid_argument);
  State taken = model.initial;
  stepper->initialize(taken);
  CHECK_NOTHROW(stepper->step(taken, 0.009999999999999998));  // the bound it names is taken
}
