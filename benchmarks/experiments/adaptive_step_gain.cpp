/// noether_adaptive_step_gain: how many fewer steps ideal step-size control would take than fixed
/// steps at the same error (docs/notebook.md, "What adaptive steps could gain"), from the
/// local errors along a fixed-step run.
///
///   noether_adaptive_step_gain [--case SCENARIO:N]... [--stepper NAME:ORDER]... [--steps N]
///
/// For each case and stepper (a registered name and its order p): N steps of h = 1/N from the release to t = 1. From the
/// state before each step k, the local error of the scenario's first probe is estimated by
/// Richardson's comparison of one step of h with two of h/2,
///
///   e_k = |P(S_h y_k) - P(S_{h/2} S_{h/2} y_k)| / (1 - 2^-p) = c_k h^(p+1),
///
/// and with the global error taken as the sum of the local errors, the steps at error E are
///
///   fixed h:      N_fixed = T (sum_k c_k h / E)^(1/p)
///   ideal h(t):   N_ideal = (sum_k c_k^(1/(p+1)) h)^((p+1)/p) / E^(1/p)   (h(t) ~ c(t)^(-1/(p+1))),
///
/// so the gain N_fixed / N_ideal = T (sum c_k h)^(1/p) / (sum c_k^(1/(p+1)) h)^((p+1)/p) does not
/// depend on E. It is an upper bound for a controller: the estimate of e_k itself costs steps.
/// Prints a markdown table. Exit status 0, 1 on a failed run, or
/// CLI11's nonzero code (105 to 109) on a usage error.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "measurement_tables.hpp"

namespace {

using namespace noether;

/// The local error estimates e_k along a run of `steps` steps of 1/steps (see the file comment).
std::vector<double> local_errors(const Model& model, const StepperInfo& info, long steps, int order) {
  const std::unique_ptr<Stepper> stepper = info.make(*model.system, StepperOptions{});
  const std::unique_ptr<Stepper> halves = info.make(*model.system, StepperOptions{});
  const double h = 1.0 / static_cast<double>(steps);
  State state = model.initial;
  stepper->initialize(state);
  std::vector<double> errors;
  for (long k = 0; k < steps; ++k) {
    State halved = state;
    halves->step(halved, h / 2);
    halves->step(halved, h / 2);
    stepper->step(state, h);
    const Probe& probe = model.probes.front();
    errors.push_back((probe.position(state) - probe.position(halved)).norm() / (1.0 - std::pow(2.0, -order)));
  }
  return errors;
}

/// N_fixed / N_ideal of the file comment, for T = 1.
double ideal_gain(const std::vector<double>& errors, double h, int order) {
  const double p = order;
  double sum_c = 0.0, sum_root = 0.0;
  for (double e : errors) {
    const double c = e / std::pow(h, p + 1.0);
    sum_c += c * h;
    sum_root += std::pow(c, 1.0 / (p + 1.0)) * h;
  }
  return std::pow(sum_c, 1.0 / p) / std::pow(sum_root, (p + 1.0) / p);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> cases{"chain2d:100", "chain2d:1000", "chain3d:100"};
  std::vector<std::string> steppers{"livens-em:2", "livens-em4:4"};
  long steps = 32;
  CLI::App app{"Steps that ideal step-size control would save against fixed steps, from the local errors"};
  app.add_option("--case", cases, "SCENARIO:N, repeatable (a scenario with the parameter n)")->capture_default_str();
  app.add_option("--stepper", steppers, "NAME:ORDER, repeatable (a registered stepper and its order)")
      ->capture_default_str();
  app.add_option("--steps", steps, "fixed steps over t = 1")->check(CLI::PositiveNumber)->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  try {
    std::vector<std::pair<const StepperInfo*, int>> orders;  // the steppers and their orders, checked first
    for (const std::string& text : steppers) {
      const auto [name, order] = measurement::parse_name_and_number("--stepper", text);
      if (!(order >= 1.0 && order <= 16.0 && order == std::floor(order)))
        throw std::invalid_argument("--stepper '" + text + "': the order must be an integer from 1 to 16");
      orders.emplace_back(&find_stepper(name), static_cast<int>(order));
    }
    std::cout << "| case | stepper | steps | smallest local error | largest | N_fixed / N_ideal |\n"
              << "|---|---|---:|---:|---:|---:|\n";
    for (const std::string& text : cases) {
      const auto [name, n] = measurement::parse_name_and_number("--case", text);
      const Scenario& scenario = find_scenario(name);
      const Model model = scenario.build(resolve_parameters(scenario, {{"n", n}}));
      for (const auto& [stepper, order] : orders) {
        const std::vector<double> errors = local_errors(model, *stepper, steps, order);
        const auto [smallest, largest] = std::minmax_element(errors.begin(), errors.end());
        std::cout << "| " << text << " | " << stepper->name << " | " << steps << " | "
                  << measurement::scientific(*smallest) << " | " << measurement::scientific(*largest) << " | "
                  << measurement::fixed(ideal_gain(errors, 1.0 / static_cast<double>(steps), order)) << " |\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "noether_adaptive_step_gain: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
