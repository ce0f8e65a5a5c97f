#pragma once
/// SchemeStepper's definitions, for the scheme's source file:
///   #include <noether/steppers/scheme_stepper_impl.hpp>
///   template class SchemeStepper<MyScheme>;
///
/// Beyond what SchemeAssembly needs (engine/scheme_assembly.hpp), a Scheme provides:
///   static constexpr std::string_view name;
///   static constexpr std::array<SchemeParameter, N> parameters;  optional: its own settings, read
///                                       with scheme_parameter (none when absent)
///   static constexpr bool warm_start;  Newton starts from v1 and lambda extrapolated from the
///                                       last steps (steppers/step_predictor.hpp)
///   Scheme(const System&, const StepperOptions&);     refuses what it cannot treat
///   struct Data;                                      per-step vectors its Iterate views
///   Iterate iterate(const StepInput&, ConstVectorRef x, Data&) const;
///   void add_step_rows(const StepInput&, VectorRef rows) const;
///                                       rows no element owns, constant during the step (natural)
///   Vector initial_guess(const StepInput&, const StepGuess&) const;  x (natural order)
///   State next_state(const StepInput&, ConstVectorRef x, const SchemeAssembly<Scheme>&) const;
///   double conserved_energy(const State&) const;
///   std::string row_label(int field, Index i) const;  what row i of a field balances
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <noether/engine/format.hpp>
#include <noether/engine/scheme_assembly.hpp>
#include <noether/steppers/scheme_stepper.hpp>
#include <noether/steppers/step_predictor.hpp>

namespace noether {

/// The step equations R(x) = 0 of one step as Newton sees them (Newton order), and the data of the
/// step being solved.
template <class Scheme>
class SchemeStepper<Scheme>::StepEquations final : public NewtonSystem {
 public:
  StepEquations(const System& system, const Scheme& scheme) : scheme_(scheme), assembly_(system, scheme) {}

  const CscPattern& pattern() const override { return assembly_.pattern(); }
  std::span<const double> matrix() const override { return assembly_.matrix(); }

  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool with_matrix) override {
    assembly_.layout().to_natural_order(x, natural_x_);
    assembly_.assemble(scheme_.iterate(*input_, natural_x_, data_), step_rows_, residual, scale, floor, with_matrix);
  }

  std::string describe_row(Index row) const override {
    const auto [field, index] = assembly_.layout().field_of(assembly_.layout().natural_index(row));
    std::string label = scheme_.row_label(field, index);
    if (!input_) return label;
    typename Scheme::Data data;
    const std::string owner = assembly_.largest_contributor(scheme_.iterate(*input_, natural_x_, data), row);
    return owner.empty() ? label : label + "; largest contribution from " + owner;
  }

  std::string describe_non_finite() const override {
    if (!input_) return {};
    typename Scheme::Data data;
    return assembly_.non_finite_contributor(scheme_.iterate(*input_, natural_x_, data));
  }

  /// Solves the step from `state` by h, from Newton's start x (natural order, overwritten with the
  /// solution; left at the start on failure).
  NewtonReport solve(NewtonSolver& newton, const State& state, double h, VectorRef x) {
    if (h != h_) assembly_.invalidate_constants();  // constant blocks may depend on h
    h_ = h;
    input_.emplace(StepInput{state, h});
    struct ForgetInput {  // state is the caller's: the step's input is not kept past the solve
      std::optional<StepInput>& input;
      ~ForgetInput() { input.reset(); }
    } forget{input_};
    const Index n = pattern().n;
    natural_rows_.setZero(n);
    scheme_.add_step_rows(*input_, natural_rows_);
    step_rows_.resize(n);
    assembly_.layout().to_newton_order(natural_rows_, step_rows_);
    natural_x_.resize(n);
    Vector newton_x(n);
    assembly_.layout().to_newton_order(x, newton_x);
    const NewtonReport report = newton.solve(*this, newton_x, describe_step(state, h));
    assembly_.layout().to_natural_order(newton_x, x);
    return report;
  }

  const SchemeAssembly<Scheme>& assembly() const { return assembly_; }
  StepPredictor& predictor() { return predictor_; }

 private:
  const Scheme& scheme_;
  SchemeAssembly<Scheme> assembly_;
  typename Scheme::Data data_;
  std::optional<StepInput> input_;  ///< the step being solved (only during solve)
  double h_ = 0.0;
  Vector natural_rows_;  ///< the step rows in natural order, as the scheme writes them
  Vector step_rows_;     ///< the same in Newton order
  Vector natural_x_;  ///< the last evaluated x, natural order
  StepPredictor predictor_;
};

/// The substep tried last: where a refinement that ran out of depth failed.
template <class Scheme>
struct SchemeStepper<Scheme>::Attempt {
  double t = 0.0, h = 0.0;
};

/// The parameters a scheme declares (none when it declares none).
template <class Scheme>
constexpr std::span<const SchemeParameter> declared_parameters() {
  if constexpr (requires { Scheme::parameters; })
    return Scheme::parameters;
  else
    return {};
}

/// The scheme, once the options name none of its parameters it does not declare.
template <class Scheme>
std::unique_ptr<const Scheme> make_scheme(const System& system, const StepperOptions& options) {
  check_scheme_parameters(Scheme::name, declared_parameters<Scheme>(), options);
  return std::make_unique<const Scheme>(system, options);
}

template <class Scheme>
SchemeStepper<Scheme>::SchemeStepper(const System& system, const StepperOptions& options)
    : system_owner_(system.weak_from_this().lock()), system_(require_coordinates(system, Scheme::name)),
      max_refinement_depth_(options.max_refinement_depth),
      scheme_(make_scheme<Scheme>(system, options)),
      equations_(std::make_unique<StepEquations>(system, *scheme_)),
      newton_(std::make_unique<NewtonSolver>(equations_->pattern(), options.solver, options.newton)) {
  check_stepper_options(options);
}

template <class Scheme>
SchemeStepper<Scheme>::~SchemeStepper() = default;

template <class Scheme>
std::string_view SchemeStepper<Scheme>::name() const {
  return Scheme::name;
}

template <class Scheme>
void SchemeStepper<Scheme>::initialize(State& state) const {
  check_initial_state(system_, state, name());
  check_initial_masses(system_, state.q, name());
  initialize_momentum(system_, state);
}

template <class Scheme>
StepReport SchemeStepper<Scheme>::step(State& state, double h) {
  check_step_input(system_, state, h, name());
  StepReport report;
  report.substeps = 0;
  report.smallest_substep = std::abs(h);
  Attempt last;
  State next = state;
  try {
    advance(next, h, max_refinement_depth_, report, last);
  } catch (const NewtonError& e) {
    const std::string context = report.refinements == 0
                                    ? e.context()
                                    : describe_step(state, h) + ", refined " + std::to_string(report.refinements) +
                                          " times, in its substep from t = " + format_number(last.t) + " by h = " +
                                          format_number(last.h);
    throw with_rank_loss(system_, state, NewtonError(context, e.reason(), e.history(), e.worst_row(), e.worst_value(),
                                                     e.worst_scale(), e.cause()));
  }
  next.step = state.step + 1;  // one step of the caller's grid, however many substeps it took
  next.t = state.t + h;
  state = std::move(next);
  return report;
}

template <class Scheme>
void SchemeStepper<Scheme>::advance(State& state, double h, int depth, StepReport& report, Attempt& last) {
  last = {state.t, h};
  try {
    add_newton_work(report, advance_once(state, h));
    ++report.substeps;
    report.smallest_substep = std::min(report.smallest_substep, std::abs(h));
  } catch (const NewtonError& e) {
    report.iterations += static_cast<int>(e.history().size()) - 1;  // the iterates after the start
    if (depth == 0) throw;
    ++report.refinements;
    advance(state, 0.5 * h, depth - 1, report, last);
    advance(state, 0.5 * h, depth - 1, report, last);
  }
}

template <class Scheme>
NewtonReport SchemeStepper<Scheme>::advance_once(State& state, double h) {
  const StepInput input{state, h};
  const StepGuess guess = Scheme::warm_start ? equations_->predictor().predict(state, h) : StepGuess{state.v, state.lambda};
  Vector x = scheme_->initial_guess(input, guess);
  const NewtonReport report = equations_->solve(*newton_, state, h, x);
  State after = scheme_->next_state(input, x, equations_->assembly());
  if (Scheme::warm_start) equations_->predictor().record(state, after, h);
  state = std::move(after);
  return report;
}

template <class Scheme>
double SchemeStepper<Scheme>::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name());
  return scheme_->conserved_energy(state);
}

}  // namespace noether
