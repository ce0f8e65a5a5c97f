/// Observed order of convergence of the steppers on the double pendulum (released from horizontal).
/// T = 0.5 s keeps the chaotic pendulum in the asymptotic regime: the observed orders were
/// 2.000-2.04 (livens-em) and 1.001-1.013 (ggl-vi) for h from 0.02 down to 0.00125.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

constexpr double kEndTime = 0.5;

/// q(T) of the double pendulum advanced by `stepper` with step h.
Vector final_configuration(const std::string& stepper_name, double h) {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, StepperOptions{});
  State state = model.initial;
  stepper->initialize(state);
  const int steps = static_cast<int>(std::lround(kEndTime / h));
  for (int n = 0; n < steps; ++n) stepper->step(state, h);
  return state.q;
}

/// Reference: livens-em (order 2) at h = T/2048, whose error (~5e-8) is far below every error measured.
const Vector& reference_configuration() {
  static const Vector reference = final_configuration("livens-em", kEndTime / 2048);
  return reference;
}

/// log2(e(h)/e(h/2)) for h = 0.01 and h = 0.005, e = max |q(T) - q_ref(T)|.
std::vector<double> observed_orders(const std::string& stepper_name) {
  std::vector<double> errors, orders;
  for (double h : {0.01, 0.005, 0.0025})
    errors.push_back((final_configuration(stepper_name, h) - reference_configuration()).cwiseAbs().maxCoeff());
  for (std::size_t i = 0; i + 1 < errors.size(); ++i) orders.push_back(std::log2(errors[i] / errors[i + 1]));
  MESSAGE(stepper_name, ": errors at h = 0.01, 0.005, 0.0025: ", errors[0], ", ", errors[1], ", ", errors[2],
          "; observed orders ", orders[0], ", ", orders[1]);
  return orders;
}

}  // namespace

TEST_CASE("livens-em converges with order 2 on the double pendulum") {
  for (double order : observed_orders("livens-em")) CHECK(std::abs(order - 2.0) <= 0.3);
}

TEST_CASE("ggl-vi converges with order 1 on the double pendulum") {
  for (double order : observed_orders("ggl-vi")) CHECK(std::abs(order - 1.0) <= 0.3);
}

TEST_CASE("em-ggl converges with order 2 on the double pendulum") {
  for (double order : observed_orders("em-ggl")) CHECK(std::abs(order - 2.0) <= 0.3);
}
