#pragma once
/// Higher order from a symmetric second-order stepper by symmetric composition
/// [HairerLubichWanner2006, Sec. II.4 and V.3]: a step of h is the base stepper's steps of
/// gamma_1 h, gamma_2 h, ..., gamma_s h (sum gamma_k = 1, gamma_k = gamma_{s+1-k}). For a symmetric
/// base of order 2 whose one-step map is near the identity, Phi_h(y) = y + O(h), with a smooth
/// expansion in h, the composition is symmetric and of order 4 when sum gamma_k^3 = 0, of order 6
/// when further conditions hold.
///
/// The coefficients are chosen for the least error at equal numbers of substeps (a substep costs
/// the same whatever the coefficients; docs/performance.md, "Compositions"): Suzuki's five
/// substeps for order 4 [Suzuki1990], whose middle substep goes back by 0.66 h, where the triple
/// jump's [Yoshida1990] goes back by 1.70 h; neither Suzuki's construction with seven substeps
/// (less error once h is small, more cost where the chains' errors are not yet O(h^4)) nor another
/// member of the one-parameter family of palindromic five-substep sets of order 4 does better
/// where it matters (docs/notebook.md, "Suzuki's construction with seven substeps", "The other
/// symmetric five-substep compositions of order 4"); and Kahan and Li's nine for order 6
/// [KahanLi1997], far more accurate than the triple jump composed twice with as many substeps.
/// Negative substeps go back in time, which the symmetric bases (livens-em, em-ggl) take.
///
/// Bases whose state has a component that changes sign at every step. livens-em's v and p are
/// independent of q: v1 = 2 (q1 - q0)/h - v0, p1 = 2 Dbar_2 T - p0. Off the constraints' tangent
/// space (G v != 0) or off p = M(q) v, a step maps G v to -G v and p - M v to -(p - M v), however
/// small h (tests/steppers/test_composition.cpp: on the double pendulum and the spring pendulum
/// 1e-3 becomes -1e-3 after one step of 1e-4). Its one-step map is then not near the identity,
/// and its compositions stop at order 4 (Kahan and Li's coefficients on single livens-em steps:
/// 4.0 on the double pendulum).
/// Two equal steps, Psi(h) = Phi(h/2) Phi(h/2), change the sign twice: Psi is near the identity,
/// symmetric and of order 2, and composing Psi gives order 6 (tests/steppers/test_composition.cpp;
/// paired(), used by livens-em4 and livens-em6). Each half-step is a full livens-em step, so
/// nothing it keeps is lost.
///
/// Every substep is a full step of the base scheme, so what the base keeps exactly (energy,
/// momentum maps, the position constraints) the composition keeps; each substep is refined by the
/// base where its Newton fails (StepperOptions::max_refinement_depth), and the base's warm start
/// extrapolates across the substeps (steppers/step_predictor.hpp).
///
/// How exactly the substeps are solved. A composed step of order p has local error ~ C h^(p+1)
/// and global error ~ C t h^p; what the substeps' Newton solves leave must stay below that at every
/// h. A solve returns either an iterate reached by an update that met the increment test, whose
/// error is quadratic in that increment (<= 1e-10 (1 + max|x|), NewtonOptions): ~1e-20, below
/// rounding at any h; or its initial iterate, the warm start, accepted because its scaled residual
/// met the tolerance tol. The warm start extrapolates the base's values and is off by O(h^3):
/// accepted, it leaves in its substep an error up to ~ tol that does not fall with h, and, the
/// extrapolation error being smooth, these errors add up over the s t / h substeps to ~ tol t / h,
/// which passes C t h^p as h falls, so that the digits fall as h halves. Keeping them below the
/// composition's error would take a tolerance ~ h^(p+1) on the warm start (no fixed tolerance is),
/// which its residual, O(h^3), cannot meet once h is small: the scaled tolerance amounts there to
/// never accepting the warm start. So the substeps never accept it (substep_options:
/// NewtonOptions::accept_initial_iterate = false): a warm start within the tolerance takes one
/// update with the tangent factored at it, whose error is quadratic in the warm start's, O(h^6),
/// and below rounding wherever the warm start met the tolerance. Every later iterate is held to
/// the tolerance as given, the default's or an explicit one (--newton-tol) alike: it decides how
/// far the iteration goes before the increment test ends it, not the error left. The cost is the
/// factorization and solve of that one update in the substeps that took none, at most one
/// factorization per substep (docs/steppers.md, "How a composition's substeps are solved").
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <noether/steppers/stepper.hpp>

namespace noether {

/// A composition of order 4 with `substeps` = 2m + 1 substeps, Suzuki's five [Suzuki1990] (m = 2)
/// with m equal substeps on each side of a middle one that goes back in time,
///   gamma_k = 1/(2m - (2m)^(1/3)) for k != m + 1,  gamma_{m+1} = 1 - 2m gamma_1,
/// the one such choice with sum gamma_k = 1 and sum gamma_k^3 = 0 (derived here from those two
/// conditions). m = 1 is the triple jump [Yoshida1990]. Precondition: `substeps` odd and at least
/// 3 (std::invalid_argument otherwise).
std::vector<double> suzuki_coefficients(int substeps);

/// Kahan and Li's composition of order 6 with 9 substeps [KahanLi1997; HairerLubichWanner2006,
/// eq. V.3.11].
std::vector<double> kahan_li_coefficients();

/// Each gamma_k as two halves gamma_k/2, gamma_k/2: the composition of Psi(h) = Phi(h/2) Phi(h/2)
/// by `coefficients` (twice as many substeps).
std::vector<double> paired(const std::vector<double>& coefficients);

/// A refusal of the base stepper `base` worded for the composition `name`: every stepper's
/// refusals begin with its name ("em-ggl needs ...", "livens-em: ..."), which becomes `name`
/// ("em-ggl4 needs ..."); a message that does not begin so gets "name: " in front.
std::string refusal_of_composition(std::string_view message, std::string_view base, std::string_view name);

/// The options a composition's base stepper is made with: `options` with Newton's warm start
/// never accepted unrefined (NewtonOptions::accept_initial_iterate = false; the file comment says why).
StepperOptions substep_options(StepperOptions options);

class CompositionStepper final : public Stepper {
 public:
  /// name: the composed stepper's (e.g. "livens-em4"); base: a symmetric stepper of order 2 on
  /// `system` (which must outlive this), made with substep_options of the run's options (a base
  /// made with other options keeps them: its substeps are solved as that base's steps would be);
  /// coefficients: the substep fractions gamma_k; refines: whether a step that stalls or fails is
  /// taken again off the singular instant (take_step_off_singular_nodes:
  /// StepperOptions::max_refinement_depth > 0).
  CompositionStepper(std::string name, const System& system, std::unique_ptr<Stepper> base,
                     std::vector<double> coefficients, bool refines = true);

  std::string_view name() const override { return name_; }
  double conserved_energy(const State& state) const override;
  FactorizationProfile factorization_profile() const override { return base_->factorization_profile(); }

 protected:
  /// The checks in this stepper's name, then the base's initialize, whose refusals (redundant
  /// equations, under the base's StepperOptions) are worded for the composition.
  void do_initialize(State& state) const override;
  /// The substeps one after the other (composed_step), taken off singular nodes when it refines:
  /// the composition's inner nodes move with the split, which the base's own steps cannot move.
  /// On a NewtonError the state is left as it was.
  StepReport do_step(State& state, double h) override;
  /// The base's: the composition keeps nothing between steps of its own.
  StepperHistory do_checkpoint() override { return base_->checkpoint(); }
  void do_restore_history(const StepperHistory& history) override { base_->restore_history(history); }

 private:
  std::string name_;
  const System& system_;
  std::unique_ptr<Stepper> base_;
  std::vector<double> coefficients_;
  bool refines_;

  /// The substeps one after the other; the report adds them up (substeps counts the base's steps).
  StepReport composed_step(State& state, double h);
};

}  // namespace noether
