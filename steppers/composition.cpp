#include <noether/steppers/composition.hpp>

#include <cmath>
#include <stdexcept>

namespace noether {

std::vector<double> triple_jump_coefficients(int order) {
  if (order != 4 && order != 6)
    throw std::invalid_argument("triple jump compositions raise order 2 to 4 or 6, not " + std::to_string(order));
  std::vector<double> gammas{1.0};
  for (int base_order = 2; base_order < order; base_order += 2) {
    const double g1 = 1.0 / (2.0 - std::pow(2.0, 1.0 / (base_order + 1))), g2 = 1.0 - 2.0 * g1;
    std::vector<double> next;
    for (double jump : {g1, g2, g1})
      for (double gamma : gammas) next.push_back(jump * gamma);
    gammas = std::move(next);
  }
  return gammas;
}

CompositionStepper::CompositionStepper(std::string name, const System& system, std::unique_ptr<Stepper> base,
                                       std::vector<double> coefficients)
    : name_(std::move(name)), system_(system), base_(std::move(base)), coefficients_(std::move(coefficients)) {
  if (!base_) throw std::invalid_argument(name_ + ": a composition needs a base stepper");
  if (base_->adaptive_step_size())
    throw std::invalid_argument(name_ + ": " + std::string(base_->name()) +
                                " chooses its own step sizes, so its steps cannot be composed with fixed fractions");
}

void CompositionStepper::initialize(State& state) const {
  check_initial_state(system_, state, name_);
  base_->initialize(state);
}

double CompositionStepper::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name_);
  return base_->conserved_energy(state);
}

StepReport CompositionStepper::step(State& state, double h) {
  check_step_input(system_, state, h, name_);
  StepReport report;
  report.substeps = 0;
  report.smallest_substep = std::abs(h);
  State next = state;
  for (double gamma : coefficients_) {
    const StepReport substep = base_->step(next, gamma * h);
    add_newton_work(report, substep);
    report.substeps += substep.substeps;
    report.refinements += substep.refinements;
    report.smallest_substep = std::min(report.smallest_substep, substep.smallest_substep);
  }
  next.step = state.step + 1;
  next.t = state.t + h;
  state = std::move(next);
  report.step_size = h;
  return report;
}

}  // namespace noether
