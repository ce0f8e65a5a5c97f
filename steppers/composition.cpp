#include <noether/steppers/composition.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace noether {

std::vector<double> suzuki_coefficients(int substeps) {
  if (substeps < 3 || substeps % 2 == 0)
    throw std::invalid_argument("Suzuki's composition needs an odd number of substeps, at least 3; got " +
                                std::to_string(substeps));
  const int outer_count = substeps - 1;  // 2m
  const double outer = 1.0 / (outer_count - std::cbrt(static_cast<double>(outer_count)));
  std::vector<double> gammas(static_cast<std::size_t>(substeps), outer);
  gammas[static_cast<std::size_t>(outer_count / 2)] = 1.0 - outer_count * outer;
  return gammas;
}

std::vector<double> kahan_li_coefficients() {
  // gamma_1 .. gamma_5 of [KahanLi1997] as [HairerLubichWanner2006] prints them; gamma_{10-k} = gamma_k.
  const std::vector<double> half{0.39216144400731413927925056, 0.33259913678935943859974864,
                                 -0.70624617255763935980996482, 0.08221359629355080023149045,
                                 0.79854399093482996339895035};
  std::vector<double> gammas(half);
  gammas.insert(gammas.end(), half.rbegin() + 1, half.rend());
  return gammas;
}

std::vector<double> paired(const std::vector<double>& coefficients) {
  std::vector<double> halves;
  for (double gamma : coefficients) halves.insert(halves.end(), 2, 0.5 * gamma);
  return halves;
}

std::string refusal_of_composition(std::string_view message, std::string_view base, std::string_view name) {
  const bool names_base = message.starts_with(base) && message.size() > base.size() &&
                          (message[base.size()] == ' ' || message[base.size()] == ':');
  if (names_base) return std::string(name) + std::string(message.substr(base.size()));
  return std::string(name) + ": " + std::string(message);
}

StepperOptions substep_options(StepperOptions options) {
  options.newton.accept_initial_iterate = false;
  return options;
}

CompositionStepper::CompositionStepper(std::string name, const System& system, std::unique_ptr<Stepper> base,
                                       std::vector<double> coefficients, bool refines)
    : Stepper(system, name, StepperOptions::RedundantEquations::allow),  // the base looks for them
      name_(std::move(name)), system_(system), base_(std::move(base)), coefficients_(std::move(coefficients)),
      refines_(refines) {
  if (!base_) throw std::invalid_argument(name_ + ": a composition needs a base stepper");
  if (base_->adaptive_step_size())
    throw std::invalid_argument(name_ + ": " + std::string(base_->name()) +
                                " chooses its own step sizes, so its steps cannot be composed with fixed fractions");
}

void CompositionStepper::do_initialize(State& state) const {
  check_initial_state(system_, state, name_);
  check_initial_masses(system_, state.q, name_);  // before the base's check, which would name the base
  try {
    base_->initialize(state);
  } catch (const StepperRefusal& refusal) {
    throw StepperRefusal(refusal_of_composition(refusal.what(), base_->name(), name_));
  }
}

double CompositionStepper::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name_);
  return base_->conserved_energy(state);
}

StepReport CompositionStepper::do_step(State& state, double h) {
  if (!refines_) return composed_step(state, h);
  // The base's steps settle their own nodes off the near null space (their take_step_off_singular_nodes).
  return take_step_off_singular_nodes(state, h, [this](State& from, double size) { return composed_step(from, size); },
                                      {});
}

StepReport CompositionStepper::composed_step(State& state, double h) {
  StepReport report;
  report.substeps = 0;
  report.smallest_substep = std::abs(h);
  State next = state;
  for (double gamma : coefficients_) {
    const StepReport substep = base_->step(next, gamma * h);
    add_newton_work(report, substep);
    report.work += substep.work;
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
