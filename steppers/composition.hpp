#pragma once
/// Higher order from a symmetric second-order stepper by symmetric composition, the triple jump
/// [Yoshida1990; HairerLubichWanner2006, Sec. II.4]: a step of h is the base stepper's steps of
/// gamma_1 h, gamma_2 h, ..., gamma_s h (sum gamma_k = 1, symmetric). For a symmetric base of order
/// 2k, Phi(g1 h) Phi(g2 h) Phi(g1 h) with g1 = 1 / (2 - 2^(1/(2k+1))), g2 = 1 - 2 g1 is symmetric of
/// order 2k + 2: order 4 from order 2 (3 substeps), order 6 by composing that again (9 substeps).
/// g2 < 0: the middle substep goes back in time, which livens-em and em-ggl take (symmetric).
///
/// Every substep is a full step of the base scheme, so what the base keeps exactly (energy,
/// momentum maps, the position constraints) the composition keeps; each substep is refined by the
/// base where its Newton fails (StepperOptions::max_refinement_depth).
#include <memory>
#include <string>
#include <vector>

#include <noether/steppers/stepper.hpp>

namespace noether {

/// The substep fractions gamma_k of the triple jump raised from order 2 to `order` (4 or 6).
/// Throws std::invalid_argument for another order.
std::vector<double> triple_jump_coefficients(int order);

class CompositionStepper final : public Stepper {
 public:
  /// name: the composed stepper's (e.g. "livens-em4"); base: a symmetric stepper of order 2 on
  /// `system` (which must outlive this).
  CompositionStepper(std::string name, const System& system, std::unique_ptr<Stepper> base,
                     std::vector<double> coefficients);

  std::string_view name() const override { return name_; }
  void initialize(State& state) const override;
  /// The substeps one after the other; on a NewtonError of any of them the state is left as it
  /// was. The report adds up the substeps (substeps counts the base's steps). Input errors are
  /// refused as every stepper refuses them, naming this stepper.
  StepReport step(State& state, double h) override;
  double conserved_energy(const State& state) const override;

 private:
  std::string name_;
  const System& system_;
  std::unique_ptr<Stepper> base_;
  std::vector<double> coefficients_;
};

}  // namespace noether
