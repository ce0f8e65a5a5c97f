#pragma once
/// The steppers users can choose by name.
#include <functional>
#include <memory>
#include <span>
#include <string>

#include <noether/steppers/stepper.hpp>

namespace noether {

/// A stepper users can choose: its entry is made from its scheme's declarations (Scheme::name and
/// Scheme::traits, steppers/scheme_stepper.hpp), a composition's from its base's and its order.
struct StepperInfo {
  std::string name;
  std::string description;
  /// Builds the stepper for a system; throws StepperRefusal when the scheme cannot treat it.
  std::function<std::unique_ptr<Stepper>(const System&, const StepperOptions&)> make;
  /// The scheme's own parameters (StepperOptions::scheme_parameters, `--set NAME=VALUE`).
  std::span<const SchemeParameter> parameters = {};
  /// The scheme chooses each step's size (Stepper::adaptive_step_size): a run gives it the last
  /// step's size as the next first guess and ends at the first state at or past t_end.
  bool adaptive_step_size = false;
  /// Every step reports an estimate of its tangent's condition number (StepReport::condition_estimate).
  bool reports_condition = false;
  /// The order of convergence of q and p in the step size (SchemeTraits::order).
  int order = 0;
  /// Stepper::conserved_energy is constant to Newton's tolerance without dampers and loads
  /// (SchemeTraits::conserves_energy).
  bool conserves_energy = false;
};

/// All steppers, in the order `noether list` prints them.
std::span<const StepperInfo> steppers();
/// Throws std::invalid_argument naming the stepper and listing the known ones.
const StepperInfo& find_stepper(const std::string& name);

}  // namespace noether
