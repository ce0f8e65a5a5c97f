/// Compositions of the symmetric steppers (steppers/composition.hpp): their coefficients, observed
/// orders, the energy they keep, and refinement inside their substeps.
/// Observed orders are log2 of ratios of differences of q(T) between runs at h, h/2, h/4 (the
/// differences converge at the method's order), with Newton at 1e-14 so that its error stays far
/// below the differences.
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/composition.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

using MakeStepper = std::function<std::unique_ptr<Stepper>(const System&, const StepperOptions&)>;

Model build(const std::string& scenario_name, const ParameterValues& overrides = {}) {
  const Scenario& scenario = find_scenario(scenario_name);
  return scenario.build(resolve_parameters(scenario, overrides));
}

Vector final_configuration(const std::string& scenario, const MakeStepper& make, double h, double t_end,
                           const ParameterValues& overrides) {
  const Model model = build(scenario, overrides);
  StepperOptions options;
  options.newton.residual_tolerance = 1e-14;
  const std::unique_ptr<Stepper> stepper = make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  for (long n = std::lround(t_end / h); n > 0; --n) stepper->step(state, h);
  return state.q;
}

/// The observed order from h to h/2 to h/4 (t_end a multiple of h).
double observed_order(const std::string& scenario, const std::string& label, double h, double t_end,
                      const MakeStepper& make, const ParameterValues& overrides = {}) {
  const Vector q1 = final_configuration(scenario, make, h, t_end, overrides),
               q2 = final_configuration(scenario, make, h / 2, t_end, overrides),
               q4 = final_configuration(scenario, make, h / 4, t_end, overrides);
  const double e1 = (q1 - q2).cwiseAbs().maxCoeff(), e2 = (q2 - q4).cwiseAbs().maxCoeff();
  MESSAGE(label, " on ", scenario, ": differences ", e1, ", ", e2, ", observed order ", std::log2(e1 / e2));
  return std::log2(e1 / e2);
}

double observed_order(const std::string& scenario, const std::string& stepper, double h, double t_end,
                      const ParameterValues& overrides = {}) {
  return observed_order(scenario, stepper, h, t_end, find_stepper(stepper).make, overrides);
}

/// sum_k gamma_k^p.
double power_sum(const std::vector<double>& gammas, int p) {
  double sum = 0.0;
  for (double gamma : gammas) sum += std::pow(gamma, p);
  return sum;
}

void check_symmetric(const std::vector<double>& gammas) {
  for (std::size_t k = 0; k < gammas.size(); ++k) CHECK(gammas[k] == gammas[gammas.size() - 1 - k]);
}

}  // namespace

TEST_CASE("composition coefficients: symmetric, summing to 1, with the order conditions of odd powers") {
  const std::vector<double> suzuki = suzuki_coefficients(5), kahan_li = kahan_li_coefficients();
  CHECK(suzuki.size() == 5u);
  CHECK(kahan_li.size() == 9u);
  for (const std::vector<double>* gammas : {&suzuki, &kahan_li}) {
    check_symmetric(*gammas);
    CHECK(std::abs(power_sum(*gammas, 1) - 1.0) <= 1e-15);
    CHECK(std::abs(power_sum(*gammas, 3)) <= 1e-15);  // order 4
  }
  CHECK(std::abs(power_sum(kahan_li, 5)) <= 1e-15);  // one of the conditions of order 6
  CHECK(suzuki[2] < 0.0);                            // the middle substep goes back in time

  for (int substeps : {3, 7, 9}) {
    CAPTURE(substeps);
    const std::vector<double> gammas = suzuki_coefficients(substeps);
    CHECK(gammas.size() == static_cast<std::size_t>(substeps));
    check_symmetric(gammas);
    CHECK(std::abs(power_sum(gammas, 1) - 1.0) <= 1e-15);
    const double middle = gammas[static_cast<std::size_t>(substeps / 2)];
    CHECK(middle < 0.0);
    // The sum cancels terms up to |middle|^3 = 4.9 (the triple jump): a few roundings of each.
    double absolute_cubes = 0.0;
    for (double gamma : gammas) absolute_cubes += std::pow(std::abs(gamma), 3);
    CHECK(std::abs(power_sum(gammas, 3)) <= 4.0 * std::numeric_limits<double>::epsilon() * absolute_cubes);
  }
  CHECK(suzuki_coefficients(3)[0] == doctest::Approx(1.0 / (2.0 - std::cbrt(2.0))).epsilon(1e-15));  // the triple jump
  for (int substeps : {-1, 1, 4}) {
    const std::string refusal = "an odd number of substeps, at least 3; got " + std::to_string(substeps);
    CHECK_THROWS_WITH_AS(suzuki_coefficients(substeps), doctest::Contains(refusal.c_str()), std::invalid_argument);
  }

  const std::vector<double> halves = paired(kahan_li);
  CHECK(halves.size() == 18u);
  check_symmetric(halves);
  for (std::size_t k = 0; k < kahan_li.size(); ++k) {
    CHECK(halves[2 * k] == 0.5 * kahan_li[k]);
    CHECK(halves[2 * k + 1] == 0.5 * kahan_li[k]);
  }
}

TEST_CASE("livens-em4, livens-em6, em-ggl4 and em-ggl6 converge at orders 4, 6, 4 and 6 on the double pendulum") {
  CHECK(std::abs(observed_order("double-pendulum", "livens-em4", 0.02, 0.5) - 4.0) <= 0.3);
  CHECK(std::abs(observed_order("double-pendulum", "em-ggl4", 0.02, 0.5) - 4.0) <= 0.3);
  CHECK(std::abs(observed_order("double-pendulum", "livens-em6", 0.04, 0.48) - 6.0) <= 0.3);
  CHECK(std::abs(observed_order("double-pendulum", "em-ggl6", 0.04, 0.48) - 6.0) <= 0.3);
  // No constraints, M(q): livens-em6 on the spring pendulum.
  // A softer spring than the default EA = 300, whose frequency (omega h = 0.7 at h = 0.04) keeps the
  // differences out of the asymptotic range until the finest reaches the Newton tolerance.
  CHECK(std::abs(observed_order("spring-pendulum", "livens-em6", 0.1, 0.8, {{"EA", 30.0}}) - 6.0) <= 0.3);
}

TEST_CASE("the compositions' errors do not grow as h halves below their truncation error, at the default tolerance") {
  // Newton's warm start extrapolates the base's values and is off by O(h^3); accepted because its
  // residual met the tolerance, it left an error ~ 1e-13 per substep that does not fall with h, and
  // that added up over the substeps (steppers/composition.hpp): em-ggl4 on the double pendulum had
  // 1.2e-14, 3.5e-12, 4.5e-9 at h = 2.5e-4, 1.25e-4, 6.25e-5; em-ggl6 1.5e-9, 8.4e-9, 3.2e-9. The
  // reference: em-ggl6 at 5e-4, its own error below 1e-13 (checked against 2.5e-4). From 2.5e-4 on,
  // both compositions' truncation errors are below 1e-14 (em-ggl4 at 5e-4: 3.8e-13, / 16 per
  // halving), so what remains is rounding: ~ eps |q| per substep over 4e4 to 1.4e5 substeps, at
  // most sqrt(1.4e5) 2.2e-16 * 1.5 m ~ 1e-13 when the roundings add up at random.
  constexpr double kRounding = 1e-13;
  const auto final_q = [](const std::string& stepper, double h) {
    const Model model = build("double-pendulum");
    const std::unique_ptr<Stepper> s = find_stepper(stepper).make(*model.system, StepperOptions{});
    State state = model.initial;
    s->initialize(state);
    for (long n = std::lround(1.0 / h); n > 0; --n) s->step(state, h);
    return Vector(state.q);
  };
  const Vector reference = final_q("em-ggl6", 5e-4);
  CHECK((final_q("em-ggl6", 2.5e-4) - reference).cwiseAbs().maxCoeff() <= kRounding);
  for (const std::string stepper : {"em-ggl4", "em-ggl6"}) {
    CAPTURE(stepper);
    double previous = std::numeric_limits<double>::quiet_NaN();
    for (double h : {2.5e-4, 1.25e-4, 6.25e-5}) {
      const double error = (final_q(stepper, h) - reference).cwiseAbs().maxCoeff();
      MESSAGE(stepper, " at h = ", h, ": error ", error);
      CHECK(error <= 10.0 * kRounding);  // 12 digits, where the tolerance's error cost 3 to 6
      if (!std::isnan(previous)) CHECK(error <= previous + kRounding);
      previous = error;
    }
  }
}

TEST_CASE("livens-em reflects G v and p - M v at every step, however small h, and two steps restore them") {
  // Why livens-em is composed in pairs (steppers/composition.hpp): its one-step map is not near
  // the identity off G v = 0 and p = M(q) v.
  for (double h : {1e-3, 1e-4}) {
    CAPTURE(h);
    {
      const Model model = build("double-pendulum");
      const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*model.system, StepperOptions{});
      State state = model.initial;
      stepper->initialize(state);  // refuses velocities off the constraints: they are set after it
      state.v.head(2) += 1e-3 * state.q.head(2);  // along the first rod: off the tangent space
      Vector gv0(model.system->num_multipliers()), gv(gv0.size());
      calc_velocity_constraint_values(*model.system, state.q, state.v, gv0);
      REQUIRE(gv0.cwiseAbs().maxCoeff() >= 1e-4);
      stepper->step(state, h);
      calc_velocity_constraint_values(*model.system, state.q, state.v, gv);
      CHECK((gv + gv0).cwiseAbs().maxCoeff() <= 1e-2 * gv0.cwiseAbs().maxCoeff());
      stepper->step(state, h);
      calc_velocity_constraint_values(*model.system, state.q, state.v, gv);
      CHECK((gv - gv0).cwiseAbs().maxCoeff() <= 1e-2 * gv0.cwiseAbs().maxCoeff());
    }
    {
      const Model model = build("spring-pendulum");  // M depends on q, no constraints
      const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*model.system, StepperOptions{});
      State state = model.initial;
      stepper->initialize(state);
      state.p(0) += 1e-3;
      const auto defect = [&] {
        Vector Mv(state.p.size());
        calc_momentum(*model.system, state.q, state.v, Mv);
        return Vector(state.p - Mv);
      };
      const Vector defect0 = defect();
      stepper->step(state, h);
      CHECK((defect() + defect0).cwiseAbs().maxCoeff() <= 1e-2 * 1e-3);
      stepper->step(state, h);
      CHECK((defect() - defect0).cwiseAbs().maxCoeff() <= 1e-2 * 1e-3);
    }
  }
}

TEST_CASE("livens-em composed step by step, not in pairs, stops at order 4") {
  // livens-em leaves G v = 0 free, and G v changes sign at every step (steppers/composition.hpp):
  // Kahan and Li's coefficients on single livens-em steps converge at order 4 on the double
  // pendulum; on pairs of steps (livens-em6) at order 6.
  const MakeStepper unpaired = [](const System& system, const StepperOptions& options) {
    return std::make_unique<CompositionStepper>("livens-em by Kahan and Li, unpaired", system,
                                                std::make_unique<LivensEnergyMomentum>(system, substep_options(options)),
                                                kahan_li_coefficients());
  };
  CHECK(std::abs(observed_order("double-pendulum", "unpaired", 0.04, 0.48, unpaired) - 4.0) <= 0.3);
}

TEST_CASE("the compositions conserve the energy their base conserves, and count their substeps") {
  for (const auto& [name, substeps] : {std::pair{"livens-em4", 10}, {"livens-em6", 18}, {"em-ggl4", 5}, {"em-ggl6", 9}}) {
    const char* const stepper_name = name;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(stepper_name);
    const Model model = build("double-pendulum");
    const std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model.system, StepperOptions{});
    State state = model.initial;
    stepper->initialize(state);
    const double energy0 = stepper->conserved_energy(state);
    double drift = 0.0;
    for (int n = 0; n < 50; ++n) {
      const StepReport report = stepper->step(state, 0.01);
      CHECK(report.substeps == substeps);
      drift = std::max(drift, std::abs(stepper->conserved_energy(state) - energy0));
    }
    CHECK(state.step == 50);
    CHECK(state.t == doctest::Approx(0.5).epsilon(1e-14));
    CHECK(drift <= 1e-11);  // to the Newton tolerance (1e-10 on the momentum balance) per substep
  }
}

TEST_CASE("a composition's substeps are refined where their Newton fails") {
  const Model model = build("double-pendulum");
  StepperOptions options;
  options.newton.max_iterations = 3;  // too few for the long substeps, enough for their halves
  options.newton.residual_tolerance = 1e-11;
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em4").make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  const double energy0 = stepper->conserved_energy(state);
  int refinements = 0;
  for (int n = 0; n < 20; ++n) refinements += stepper->step(state, 0.05).refinements;
  CHECK(refinements > 0);
  CHECK(std::abs(stepper->conserved_energy(state) - energy0) <= 1e-9);
}

TEST_CASE("a composition's refusals name it, not its base") {
  for (const std::string name : {"livens-em4", "livens-em6", "em-ggl4", "em-ggl6"}) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(find_stepper(name).make(System{}, StepperOptions{}),
                         (name + ": the system has no coordinates; add bodies (Mechanism) or coordinate blocks "
                                 "(System::add_block) with their elements before making a stepper")
                             .c_str(),
                         StepperRefusal);
  }
  // M(q) = diag(1, -1), indefinite: refused when initialized, by livens-em4 (em-ggl refuses any M(q)).
  System system;
  const BlockId p = system.add_block("p", {"x", "y"});
  system.add(std::make_shared<ConfigurationInertia>(
      "pendulum", std::vector{p}, 2,
      MassFunction{.mass = [](ConstVectorRef) { return Matrix(Eigen::Vector2d(1.0, -1.0).asDiagonal()); },
                   .mass_derivative = [](ConstVectorRef, Index) { return Matrix(Matrix::Zero(2, 2)); },
                   .mass_second_derivative = [](ConstVectorRef, Index, Index) { return Matrix(Matrix::Zero(2, 2)); }}));
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em4").make(system, StepperOptions{});
  State state{.q = Vector::Zero(2), .v = Vector::Zero(2)};
  CHECK_THROWS_WITH_AS(stepper->initialize(state),
                       doctest::Contains("livens-em4: inertia 'pendulum': M(q) at the initial configuration has the "
                                         "negative eigenvalue -1"),
                       StepperRefusal);
  // What the base refuses when made (reliability table, api/mass_function_indefinite/em-ggl4): em-ggl4
  // and em-ggl6 refused a configuration-dependent or singular M as 'em-ggl needs ...'.
  for (const std::string name : {"em-ggl4", "em-ggl6"}) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(find_stepper(name).make(system, StepperOptions{}),
                         (name + " needs a constant invertible mass matrix, but inertia 'pendulum' depends on the "
                                 "configuration; use livens-em, which takes configuration-dependent and singular M")
                             .c_str(),
                         StepperRefusal);
    System singular;
    const BlockId b = singular.add_block("p", {"x", "y"});
    singular.add(std::make_shared<ConstantInertia>("mass", std::vector{b}, Matrix(Eigen::Vector2d(1.0, 0.0).asDiagonal())));
    CHECK_THROWS_WITH_AS(find_stepper(name).make(singular, StepperOptions{}),
                         (name + " needs a constant invertible mass matrix, but inertia 'mass' is singular (rank 1 of "
                                 "2); use livens-em, which never inverts M")
                             .c_str(),
                         StepperRefusal);
  }
  StepperOptions cholmod;
  cholmod.solver = LinearSolverKind::cholmod;
  CHECK_THROWS_WITH_AS(find_stepper("livens-em6").make(system, cholmod), doctest::Contains("livens-em6: CHOLMOD"),
                       StepperRefusal);
}

TEST_CASE("a refusal of the base is worded for the composition") {
  CHECK(refusal_of_composition("em-ggl needs M", "em-ggl", "em-ggl4") == "em-ggl4 needs M");
  CHECK(refusal_of_composition("livens-em: no S", "livens-em", "livens-em6") == "livens-em6: no S");
  CHECK(refusal_of_composition("em-gglx is not it", "em-ggl", "em-ggl4") == "em-ggl4: em-gglx is not it");
  CHECK(refusal_of_composition("inertia 'a' is bad", "em-ggl", "em-ggl4") == "em-ggl4: inertia 'a' is bad");
}
