#include <noether/steppers/stepper_registry.hpp>

#include <stdexcept>
#include <vector>

#include <noether/engine/quote.hpp>
#include <noether/steppers/composition.hpp>
#include <noether/steppers/em_ggl.hpp>
#include <noether/steppers/evi.hpp>
#include <noether/steppers/ggl_vi.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/steppers/lobatto4.hpp>
#include <noether/steppers/sem_vi.hpp>

namespace noether {
namespace {

/// The stepper S = SchemeStepper<Scheme> under its scheme's name, with its scheme's parameters and
/// traits, and the description `noether list` prints.
template <class S>
StepperInfo scheme_stepper(std::string description) {
  const SchemeTraits& traits = S::traits();
  return {.name = std::string(S::stepper_name()),
          .description = std::move(description),
          .make = [](const System& s, const StepperOptions& o) -> std::unique_ptr<Stepper> {
            return std::make_unique<S>(s, o);
          },
          .parameters = traits.parameters,
          .adaptive_step_size = traits.adaptive_step,
          .reports_condition = traits.estimates_condition,
          .order = traits.order,
          .conserves_energy = traits.conserves_energy};
}

/// The stepper "<Base's name><order>" (livens-em4): Base composed with the substep fractions
/// `coefficients` (steppers/composition.hpp). What Base's constructor refuses (a system without
/// coordinates, a mass it cannot invert, a solver) is refused in the name of the stepper chosen.
template <class Base>
StepperInfo composition(int order, std::vector<double> coefficients, std::string description) {
  const std::string_view base = Base::stepper_name();
  const std::string name = std::string(base) + std::to_string(order);
  auto make = [name, base, coefficients](const System& s, const StepperOptions& o) -> std::unique_ptr<Stepper> {
    std::unique_ptr<Stepper> base_stepper;
    try {
      base_stepper = std::make_unique<Base>(s, substep_options(o));
    } catch (const StepperRefusal& e) {
      throw StepperRefusal(refusal_of_composition(e.what(), base, name));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(refusal_of_composition(e.what(), base, name));
    }
    return std::make_unique<CompositionStepper>(name, s, std::move(base_stepper), coefficients,
                                                o.max_refinement_depth > 0);
  };
  const SchemeTraits& traits = Base::traits();
  return {.name = name,
          .description = std::move(description),
          .make = make,
          .reports_condition = traits.estimates_condition,
          .order = order,
          .conserves_energy = traits.conserves_energy};
}

}  // namespace

std::span<const StepperInfo> steppers() {
  static const std::vector<StepperInfo> all{
      scheme_stepper<LivensEnergyMomentum>(
          "Livens energy-momentum scheme: singular or configuration-dependent M, energy exact, order 2"),
      scheme_stepper<GglVariationalIntegrator>("GGL variational integrator: symplectic, position and velocity "
                                               "constraints, order 1; needs constant invertible M"),
      scheme_stepper<EnergyMomentumGgl>("energy-momentum scheme of the GGL equations: energy exact, position and "
                                        "velocity constraints, order 2; needs constant invertible M"),
      scheme_stepper<ExponentialVariationalIntegrator>(
          "exponential variational integrator: symplectic, S-point quadrature (--set S=), exponential interpolation "
          "(--set omega=), position constraints, order 2; needs invertible M"),
      scheme_stepper<MidpointVariationalIntegrator>(
          "midpoint variational integrator (evi with S = 1, omega = 0): symplectic, forcing by Lagrange-d'Alembert, "
          "position and velocity constraints, order 2; needs invertible M"),
      scheme_stepper<SymplecticEnergyMomentumIntegrator>(
          "symplectic-energy-momentum VI: midpoint-vi with the step size an unknown that keeps the discrete energy "
          "(balancing the forces' work), adaptive steps, position and velocity constraints; needs invertible M"),
      scheme_stepper<LobattoVariationalIntegrator>("Lobatto IIIA-IIIB (quadratic Galerkin variational integrator): "
                                                   "symplectic, position and velocity constraints, order 4 in one "
                                                   "step; needs constant invertible M"),
      composition<LivensEnergyMomentum>(4, paired(suzuki_coefficients(5)),
                                        "livens-em composed by Suzuki's coefficients, each substep as two half-steps "
                                        "(10 substeps): order 4, energy exact"),
      composition<LivensEnergyMomentum>(6, paired(kahan_li_coefficients()),
                                        "livens-em composed by Kahan and Li's coefficients, each substep as two "
                                        "half-steps (18 substeps): order 6, energy exact"),
      composition<EnergyMomentumGgl>(4, suzuki_coefficients(5),
                                     "em-ggl composed by Suzuki's coefficients (5 substeps): order 4, energy exact; "
                                     "needs constant invertible M"),
      composition<EnergyMomentumGgl>(6, kahan_li_coefficients(),
                                     "em-ggl composed by Kahan and Li's coefficients (9 substeps): order 6, energy "
                                     "exact; needs constant invertible M"),
  };
  return all;
}

const StepperInfo& find_stepper(const std::string& name) {
  std::string known;
  for (const StepperInfo& s : steppers()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw std::invalid_argument("unknown stepper " + quote(name) + "; known steppers: " + known);
}

}  // namespace noether
