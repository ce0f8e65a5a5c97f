#pragma once
/// SchemeStepper's definitions, for the scheme's source file:
///   #include <noether/steppers/scheme_stepper_impl.hpp>
///   template class SchemeStepper<MyScheme>;
/// which checks that MyScheme meets the contract of steppers/scheme_contract.hpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <noether/engine/format.hpp>
#include <noether/engine/ghost_exchange.hpp>
#include <noether/engine/scheme_assembly.hpp>
#include <noether/engine/system_part.hpp>
#include <noether/solvers/bordered_solver.hpp>
#include <noether/steppers/scheme_contract.hpp>
#include <noether/steppers/scheme_stepper.hpp>
#include <noether/steppers/step_predictor.hpp>

namespace noether {

/// The step equations R(x) = 0 of one step as Newton sees them (Newton order), and the data of the
/// step being solved.
template <class Scheme>
class SchemeStepper<Scheme>::StepEquations final : public NewtonSystem {
 public:
  static constexpr bool has_global_unknown = Scheme::traits.global_sums > 0;
  static constexpr Index kGlobalUnknowns = has_global_unknown ? 1 : 0;

  /// Over parts (part not nullptr: StepperOptions::part), every term of the system is this
  /// process's, and the rows that other processes hold too are summed after each assembly.
  StepEquations(const System& system, const Scheme& scheme, const Distribution* distribution, const SystemPart* part)
      : scheme_(scheme), assembly_(system, scheme, Scheme::traits.global_sums, part ? nullptr : distribution),
        one_process_(!distribution || distribution->ranks() == 1), column_(has_global_unknown ? pattern().n : 0),
        row_(has_global_unknown ? pattern().n : 0), sums_(static_cast<std::size_t>(Scheme::traits.global_sums)) {
    if (part) hold_part(*distribution, *part);
  }

  const CscPattern& pattern() const override { return assembly_.pattern(); }
  std::span<const double> matrix() const override { return assembly_.matrix(); }
  /// Over several processes, where the unknowns lie among their matrix parts: TermLayout's, or
  /// over parts divide_part_unknowns' with the unknowns' global numbers.
  UnknownPlacement placement() const {
    if (exchange_) return {part_owners_, global_numbers_};
    return {assembly_.layout().unknown_owners(), {}};
  }
  /// A scheme with a global unknown reads the sums of the last evaluation in next_state.
  bool reads_last_evaluation() const override { return has_global_unknown; }
  /// How Newton solves with the tangent: with a global unknown, A bordered by its column, the global
  /// row and dphi/ds of the last evaluation with the matrix (solvers/bordered_solver.hpp; it reads
  /// them from this object, which outlives the NewtonSolver); A alone otherwise.
  TangentSolverFactory tangent_solver() const {
    if constexpr (has_global_unknown)
      return bordered_tangent([this] {
        return BorderView{{column_.data(), static_cast<std::size_t>(column_.size())},
                          {row_.data(), static_cast<std::size_t>(row_.size())},
                          corner_};
      });
    return {};
  }

  /// Without the matrix, once the solve has evaluated it, the scale and floor are those of that
  /// last evaluation with the matrix (NewtonSystem::evaluate): the residual alone is assembled
  /// (what it saves: docs/notebook.md, "The scale of a chord iterate").
  /// Schemes with a global unknown assemble all three every time.
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool with_matrix) override {
    const Index n = pattern().n;
    assembly_.layout().to_natural_order(x.head(n), natural_x_.head(n));
    if constexpr (has_global_unknown) {
      natural_x_(n) = x(n);
      GlobalTermsOutput terms{column_, row_, sums_};
      assembly_.assemble(scheme_.iterate(*input_, natural_x_, data_), step_rows_, residual.head(n), scale.head(n),
                         floor.head(n), with_matrix, terms);
      const GlobalEquation global = fixed_size_ ? GlobalEquation{x(n) - input_->h, 1.0, std::abs(input_->h), 0.0, false}
                                                : scheme_.global_equation(*input_, x(n), sums_);
      residual(n) = global.value;
      scale(n) = global.scale;
      floor(n) = global.floor;
      if (!with_matrix) return;
      corner_ = global.derivative;
      if (!global.assembled_row) row_.setZero();
    } else if (!with_matrix && has_matrix_scale_) {
      assembly_.assemble_residual(scheme_.iterate(*input_, natural_x_, data_), step_rows_, residual);
      sum_shared(residual);
      scale = matrix_scale_;
      floor = matrix_floor_;
    } else {
      assembly_.assemble(scheme_.iterate(*input_, natural_x_, data_), step_rows_, residual, scale, floor, with_matrix);
      std::array<VectorRef, 3> rows{residual, scale, floor};
      sum_shared(rows);
      if (!with_matrix) return;
      matrix_scale_ = scale;
      matrix_floor_ = floor;
      has_matrix_scale_ = true;
    }
  }

  std::string describe_row(Index row) const override {
    if constexpr (has_global_unknown)
      if (row == pattern().n) return scheme_.global_label();
    const auto [field, index] = assembly_.layout().field_of(assembly_.layout().natural_index(row));
    std::string label = scheme_.row_label(field, index);
    if (!input_) return label;
    typename Scheme::Data data;
    const std::string owner = assembly_.largest_contributor(scheme_.iterate(*input_, natural_x_, data), row);
    return owner.empty() ? label : label + "; largest contribution from " + owner;
  }

  std::string describe_unknown(Index i) const override {
    if constexpr (has_global_unknown)
      if (i == pattern().n) return scheme_.global_label();
    const TermLayout& layout = assembly_.layout();
    const auto [field, index] = layout.field_of(layout.natural_index(i));
    const System& system = layout.system();
    return layout.field_kind(field) == FieldKind::multipliers ? system.multiplier_label(index)
                                                              : "coordinate " + system.coordinate_label(index);
  }

  /// The element with a non-finite entry and the size of the iterate it was evaluated at, with a
  /// hint when that is beyond the squares of doubles: then the state overflowed (absurd initial
  /// values or parameters), and the element only shows it. Otherwise, with the first element
  /// undefined (Element::singularity) at the step's start, its end or its midpoint, where the
  /// schemes evaluate their terms: a spring whose two points meet there.
  std::string describe_non_finite() const override {
    if (!input_) return {};
    typename Scheme::Data data;
    const auto it = scheme_.iterate(*input_, natural_x_, data);
    std::string source = assembly_.non_finite_contributor(it);
    if (source.empty()) return source;
    const double largest = natural_x_.cwiseAbs().maxCoeff();
    source += " at an iterate of max|x| = " + format_number(largest);
    if (beyond_double_range(largest))
      return source + ": " + beyond_range_text() + "; check the initial values and parameters for an absurd size";
    const Vector& q0 = input_->state.q;
    std::vector<std::pair<const char*, Vector>> places{{"the step's start", q0}};
    if constexpr (requires { it.q1; }) {  // the end positions, when the scheme's iterate holds them
      const Vector q1 = it.q1;
      places.push_back({"its end", q1});
      places.push_back({"its midpoint", 0.5 * (q0 + q1)});
    }
    for (const auto& [where, q] : places)
      if (const std::string undefined = undefined_element(assembly_.layout().system(), q); !undefined.empty())
        return source + "; at " + where + ", " + undefined;
    return source;
  }

  /// Solves the step from `state` by h, from Newton's start x (natural order, overwritten with the
  /// solution; left at the start on failure). fixed_size (schemes with a global unknown): with the row of the
  /// global unknown s replaced by s = h. off_near_null_space: by
  /// NewtonSolver::solve_off_near_null_space.
  NewtonReport solve(NewtonSolver& newton, const State& state, double h, VectorRef x, bool fixed_size = false,
                     bool off_near_null_space = false) {
    fixed_size_ = fixed_size;
    has_matrix_scale_ = false;
    // Not over several processes: the estimate's ||T||_1 would be of this process's part of T.
    const bool estimate_condition = Scheme::traits.estimates_condition && !fixed_size && one_process_;
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
    natural_x_.resize(n + kGlobalUnknowns);
    newton_x_.resize(n + kGlobalUnknowns);
    assembly_.layout().to_newton_order(x.head(n), newton_x_.head(n));
    if constexpr (has_global_unknown) newton_x_(n) = x(n);
    const NewtonReport report = off_near_null_space
                                    ? newton.solve_off_near_null_space(*this, newton_x_, context(state, h), estimate_condition)
                                    : newton.solve(*this, newton_x_, context(state, h), estimate_condition);
    assembly_.layout().to_natural_order(newton_x_.head(n), x.head(n));
    if constexpr (has_global_unknown) x(n) = newton_x_(n);
    return report;
  }

  /// How NewtonErrors name the step from `state` by (or, adaptive, with the first guess) h.
  static std::string context(const State& state, double h) {
    return Scheme::traits.adaptive_step ? describe_adaptive_step(state, h) : describe_step(state, h);
  }

  const SchemeAssembly<Scheme>& assembly() const { return assembly_; }
  StepPredictor& predictor() { return predictor_; }
  const StepPredictor& predictor() const { return predictor_; }
  /// Keeps the warm start's samples as a step of the caller's grid begins, so that an attempt of
  /// it after others (whose substeps recorded theirs) starts from the same extrapolation.
  void keep_predictor() { kept_predictor_ = predictor_; }
  void restore_predictor() { predictor_ = kept_predictor_; }
  /// The system is a process's part (StepperOptions::part).
  bool over_parts() const { return exchange_.has_value(); }
  /// Over parts, the processes that hold the parts; nullptr otherwise.
  const Distribution* part_processes() const { return part_processes_; }
  /// Over parts, the sum over the processes of each one's share of a whole-system sum (an
  /// energy, a work: each element counted by the one process that holds it); collective. The
  /// share itself otherwise.
  double summed_over_parts(double share) const {
    if (exchange_) part_processes_->sum({&share, 1});
    return share;
  }
  /// The global sums at the last x evaluated: Newton's solution after a solve.
  std::span<const double> sums() const { return sums_; }

 private:
  const Scheme& scheme_;
  SchemeAssembly<Scheme> assembly_;
  bool one_process_;  ///< the system is not assembled over several processes
  typename Scheme::Data data_;
  std::optional<StepInput> input_;  ///< the step being solved (only during solve)
  double h_ = 0.0;
  Vector natural_rows_;  ///< the step rows in natural order, as the scheme writes them
  Vector step_rows_;     ///< the same in Newton order
  Vector natural_x_;  ///< the last evaluated x, natural order
  Vector newton_x_;   ///< solve's iterate in Newton order (kept: no allocation per step)
  /// The scale and floor of the solve's last evaluation with the matrix (Newton order; schemes
  /// without a global unknown), once it has made one.
  Vector matrix_scale_, matrix_floor_;
  bool has_matrix_scale_ = false;
  StepPredictor predictor_;
  StepPredictor kept_predictor_;  ///< keep_predictor's copy
  bool fixed_size_ = false;   ///< the row of s is s = h (solve)
  Vector column_, row_;       ///< b = dR/ds and c = dphi/dx (Newton order; with a global unknown)
  double corner_ = 0.0;       ///< dphi/ds
  std::vector<double> sums_;  ///< the global sums of the last evaluation
  /// Over parts: the rows other processes hold too, and the unknowns' places (placement()).
  std::optional<GhostExchange> exchange_;
  const Distribution* part_processes_ = nullptr;
  std::vector<int> part_owners_;
  std::vector<Index> global_numbers_;

  /// Over parts, each row that several processes hold := the sum of their contributions, in the
  /// order of the ranks (GhostExchange::sum_shared): the whole system's row, as a process of the
  /// replicated model holds it after Distribution::sum.
  void sum_shared(VectorRef v) const {
    if (exchange_) exchange_->sum_shared(v);
  }
  void sum_shared(std::span<VectorRef> vs) const {
    if (exchange_) exchange_->sum_shared(vs);
  }

  void hold_part(const Distribution& processes, const SystemPart& part) {
    if constexpr (has_global_unknown)
      throw std::invalid_argument(std::string(Scheme::name) +
                                  " has a global unknown (its step size) whose equation sums over the whole system: it "
                                  "does not step a part of a system; run it with the whole model on every process");
    const TermLayout& layout = assembly_.layout();
    const Index n = pattern().n;
    PartUnknowns unknowns = part_unknowns(layout, part, processes.rank());
    exchange_.emplace(processes, unknowns.global, unknowns.owner);
    part_processes_ = &processes;
    std::vector<bool> multiplier(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
      multiplier[static_cast<std::size_t>(i)] =
          layout.field_kind(layout.field_of(layout.natural_index(i)).first) == FieldKind::multipliers;
    part_owners_ = divide_part_unknowns(pattern(), exchange_->held_elsewhere(n), multiplier, processes.rank());
    global_numbers_ = std::move(unknowns.global);
  }
};

/// The substep tried last: where a refinement that ran out of depth failed.
template <class Scheme>
struct SchemeStepper<Scheme>::Attempt {
  double t = 0.0, h = 0.0;
};

/// system, unless it has elements the scheme has no kernels for (actuators: refuse_actuators).
template <class Scheme>
const System& require_scheme_elements(const System& system) {
  if constexpr (SchemeTakesActuators<Scheme>) return system;
  else return refuse_actuators(system, Scheme::name);
}

/// The scheme, once the system has coordinates and elements the scheme takes, and the options name
/// none of its parameters it does not declare.
/// Over parts, a refusal of one process's part is every process's (agree_on_refusal): a part
/// without coordinates too.
template <class Scheme>
std::unique_ptr<const Scheme> make_scheme(const System& system, const StepperOptions& options) {
  std::unique_ptr<const Scheme> scheme;
  std::exception_ptr refusal;
  try {
    require_scheme_elements<Scheme>(require_coordinates(system, Scheme::name));
    check_stepper_options(options);
    check_scheme_parameters(Scheme::name, Scheme::traits.parameters, options);
    if (!Scheme::traits.rheonomic_constraints) refuse_rheonomic_constraints(system, Scheme::name);
    scheme = std::make_unique<const Scheme>(system, options);
  } catch (...) {
    refusal = std::current_exception();
  }
  agree_on_refusal(part_processes(options), refusal);
  return scheme;
}

/// Newton's options for a scheme's steps: a scheme with a warm start never accepts it unrefined
/// (NewtonOptions::accept_initial_iterate = false). The warm start is off by O(h^3); where that
/// meets the tolerance (small h), accepting it leaves an error up to the tolerance in each step,
/// which adds up to ~ tol t / h and passes the scheme's own error as h falls (steppers/composition.hpp
/// gives the same reason for its substeps). livens-em on the double four-bar at h = 2.44e-6: its
/// steps 2 and 3 accepted the warm start and changed the energy by 1.9e-10 and 3.7e-10, and the
/// error at t = 0.75 was 3.2e-10 instead of 2.8e-11 (docs/notebook.md, "The constraint's
/// increment as its rows"). The price: one factorization and solve in the steps that took none.
template <class Scheme>
NewtonOptions scheme_newton_options(NewtonOptions options) {
  if constexpr (Scheme::traits.warm_start) options.accept_initial_iterate = false;
  return options;
}

template <class Scheme>
SchemeStepper<Scheme>::SchemeStepper(const System& system, const StepperOptions& options)
    : Stepper(system, Scheme::name, options.redundant_equations),
      system_(system),
      max_refinement_depth_(options.max_refinement_depth),
      scheme_(make_scheme<Scheme>(system, options)),
      distribution_(options.distribution),
      equations_(std::make_unique<StepEquations>(system, *scheme_, distribution_.get(), options.part.get())),
      newton_(std::make_unique<NewtonSolver>(equations_->pattern(), LinearSolverChoice(options.solver, options.ordering),
                                             scheme_newton_options<Scheme>(options.newton),
                                             equations_->tangent_solver(), distribution_.get(),
                                             equations_->placement())) {}

template <class Scheme>
SchemeStepper<Scheme>::~SchemeStepper() = default;

template <class Scheme>
std::string_view SchemeStepper<Scheme>::stepper_name() {
  return Scheme::name;
}

template <class Scheme>
const SchemeTraits& SchemeStepper<Scheme>::traits() {
  static_assert(AssemblyScheme<Scheme>, "a scheme's fields, workspace_slots, Iterate, shape and evaluate for "
                                        "every element kind, and work for dampers and loads "
                                        "(engine/scheme_assembly.hpp)");
  static_assert(SchemeDeclarations<Scheme>, "a scheme's name, traits, constructor, Data, iterate, add_step_rows, "
                                            "initial_guess, conserved_energy and row_label, and no trait outside "
                                            "its traits (steppers/scheme_contract.hpp)");
  static_assert(SchemeGlobalUnknown<Scheme>, "a scheme's next_state, and global_equation and global_label exactly "
                                             "when traits.global_sums > 0 (steppers/scheme_contract.hpp)");
  static_assert(SchemeRejection<Scheme>, "a scheme's rejection(const StepInput&, ConstVectorRef) exactly when "
                                         "traits.rejects_solutions (steppers/scheme_contract.hpp)");
  return Scheme::traits;
}

template <class Scheme>
std::string_view SchemeStepper<Scheme>::name() const {
  return stepper_name();
}

/// Over parts each process checks its own part's state, and a refusal is every process's.
template <class Scheme>
void SchemeStepper<Scheme>::do_initialize(State& state) const {
  std::exception_ptr refusal;
  try {
    check_initial_state(system_, state, name());
    check_initial_masses(system_, state.q, name());
  } catch (...) {
    refusal = std::current_exception();
  }
  agree_on_refusal(equations_->part_processes(), refusal);
  initialize_momentum(system_, state);
}

template <class Scheme>
StepReport SchemeStepper<Scheme>::do_step(State& state, double h) {
  // Over parts the attempt off the near null space is not made: its directions are dense
  // solves and products over the whole system.
  if (Scheme::traits.adaptive_step || max_refinement_depth_ == 0 || equations_->over_parts())
    return refined_step(state, h);
  // The last attempt leans on the warm start for the multipliers along the lost rank: it gets the
  // extrapolation the step's first attempt had, not the state's own v and lambda, which is all the
  // predictor gives once the earlier attempts' substeps have recorded theirs.
  if constexpr (Scheme::traits.warm_start) equations_->keep_predictor();
  return take_step_off_singular_nodes(
      state, h, [this](State& from, double size) { return refined_step(from, size); },
      [this](State& from, double size) {
        struct Restore {  // the mode lasts this attempt only, whatever it throws
          bool& mode;
          ~Restore() { mode = false; }
        } restore{off_near_null_space_};
        off_near_null_space_ = true;
        if constexpr (Scheme::traits.warm_start) equations_->restore_predictor();
        return refined_step(from, size);
      });
}

template <class Scheme>
StepReport SchemeStepper<Scheme>::refined_step(State& state, double h) {
  StepReport report;
  report.substeps = 0;
  report.smallest_substep = Scheme::traits.adaptive_step ? std::numeric_limits<double>::infinity() : std::abs(h);
  Attempt last;
  // Advanced in place: advance_once changes state only once its step succeeded, and advance keeps
  // the start before a refinement's first substep, so the state is copied only when a step is refined.
  const int step = state.step;
  const double t = state.t;
  std::optional<State> step_start;
  try {
    advance(state, h, max_refinement_depth_, report, last, step_start);
  } catch (const NewtonError& e) {
    const std::string context =
        report.refinements == 0
            ? e.context()
            : StepEquations::context(step_start ? *step_start : state, h) + ", refined " + std::to_string(report.refinements) +
                  " times, in its substep from t = " + format_number(last.t) +
                  (Scheme::traits.adaptive_step ? " with the first guess h = " : " by h = ") + format_number(last.h);
    // Over parts the rank of G is the whole system's, which no process holds.
    const NewtonError error = equations_->over_parts() ? e.in_context(context)
                                                       : with_rank_loss(system_, state, last.h, e.in_context(context));
    if (step_start) state = std::move(*step_start);  // the caller's state, unchanged by the failed step
    throw error;
  }
  state.step = step + 1;  // one step of the caller's grid, however many substeps it took
  if constexpr (!Scheme::traits.adaptive_step) state.t = t + h;  // an adaptive scheme's t is its own
  report.step_size = Scheme::traits.adaptive_step ? state.t - t : h;
  return report;
}

template <class Scheme>
void SchemeStepper<Scheme>::advance(State& state, double h, int depth, StepReport& report, Attempt& last,
                                    std::optional<State>& step_start) {
  last = {state.t, h};
  try {
    const double start = state.t;
    const StepReport once = advance_once(state, h);
    add_newton_work(report, once);
    report.work += once.work;
    ++report.substeps;
    const double size = Scheme::traits.adaptive_step ? state.t - start : h;
    report.smallest_substep = std::min(report.smallest_substep, std::abs(size));
  } catch (const NewtonError& e) {
    report.iterations += static_cast<int>(e.history().size()) - 1;  // the iterates after the start
    if (depth == 0) throw;
    ++report.refinements;
    if (!step_start) step_start = state;
    advance(state, 0.5 * h, depth - 1, report, last, step_start);
    advance(state, 0.5 * h, depth - 1, report, last, step_start);
  }
}

template <class Scheme>
StepReport SchemeStepper<Scheme>::advance_once(State& state, double h) {
  const StepInput input{state, h};
  const StepGuess guess =
      Scheme::traits.warm_start ? equations_->predictor().predict(state, h) : StepGuess{state.v, state.lambda};
  Vector x = scheme_->initial_guess(input, guess);
  StepReport report;
  NewtonReport& newton = report;
  if constexpr (Scheme::traits.adaptive_step) {
    // Start from the step of the guessed size: the guess itself may sit where the step size's row
    // does not yet determine s (a straight-line guess dq = h v0 without forces makes sem-vi's
    // bordered tangent singular). The report: both solves' work, the second's history and condition.
    newton = equations_->solve(*newton_, state, h, x, true);
    add_newton_work(report, equations_->solve(*newton_, state, h, x));
  } else {
    newton = equations_->solve(*newton_, state, h, x, false, off_near_null_space_);
  }
  if constexpr (Scheme::traits.rejects_solutions) {
    const std::string reason = scheme_->rejection(input, x);
    if (!reason.empty()) throw NewtonError::rejected_solution(StepEquations::context(state, h), reason, report.history);
  }
  State after = [&] {
    if constexpr (StepEquations::has_global_unknown)
      return scheme_->next_state(input, x, equations_->assembly(), equations_->sums());
    else
      return scheme_->next_state(input, x, equations_->assembly());
  }();
  report.work = step_work(input, x);
  if (Scheme::traits.warm_start) equations_->predictor().record(state, after, h);
  state = std::move(after);
  return report;
}

template <class Scheme>
double SchemeStepper<Scheme>::step_work(const StepInput& input, ConstVectorRef x) const {
  const SchemeAssembly<Scheme>& assembly = equations_->assembly();
  typename Scheme::Data data;
  // Over parts every process takes part in the sum, whether its part has work terms or not.
  return equations_->summed_over_parts(assembly.has_work_terms() ? assembly.work(scheme_->iterate(input, x, data))
                                                                 : 0.0);
}

template <class Scheme>
double SchemeStepper<Scheme>::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name());
  return equations_->summed_over_parts(scheme_->conserved_energy(state));
}

template <class Scheme>
bool SchemeStepper<Scheme>::adaptive_step_size() const {
  return Scheme::traits.adaptive_step;
}

template <class Scheme>
StepperHistory SchemeStepper<Scheme>::do_checkpoint() {
  newton_->forget_factorization();
  StepperHistory history;
  if (Scheme::traits.warm_start) equations_->predictor().save(history, "predictor.");
  return history;
}

template <class Scheme>
void SchemeStepper<Scheme>::do_restore_history(const StepperHistory& history) {
  if (Scheme::traits.warm_start)
    equations_->predictor().restore(history, "predictor.", system_.num_coordinates(), system_.num_multipliers());
}

}  // namespace noether
