#pragma once
/// Time steppers: one step of a structure-preserving scheme on a System.
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>
#include <noether/solvers/newton.hpp>

namespace noether {

/// A stepper refuses a system (or a solver) outside what its scheme treats; the message says
/// what is missing and what to use instead.
class StepperRefusal : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A setting of one scheme (evi's number of quadrature points S, say), chosen by name
/// (StepperOptions::scheme_parameters, `--set S=3`); the scheme declares it with its default.
struct SchemeParameter {
  std::string_view name;
  double default_value;
  std::string_view meaning;  ///< what it sets and the values accepted
};

struct StepperOptions {
  /// The Newton matrices' linear solver. KLU by default: on the steppers' saddle-point matrices it
  /// factors faster than UMFPACK and refactorizes new values in place (docs/performance.md,
  /// "Linear solvers"). CHOLMOD is refused: the Newton matrices are unsymmetric and indefinite.
  LinearSolverKind solver = LinearSolverKind::klu;
  NewtonOptions newton;
  /// Step refinement: a step whose Newton fails is taken as two half-steps of the same scheme,
  /// each refined the same way, at most this many times in a row (smallest substep h / 2^depth);
  /// 0 turns it off. Every substep is a full step of the scheme, so what the scheme keeps
  /// (symplecticity, momentum maps, energy) it keeps over the refined step too. 0 to 30.
  int max_refinement_depth = 8;
  /// Values of the scheme's own parameters by name (SchemeParameter); those not given take the
  /// scheme's defaults. A name the scheme does not declare is refused (check_scheme_parameters).
  std::map<std::string, double, std::less<>> scheme_parameters = {};
};

/// Throws std::invalid_argument naming the option and its value unless max_refinement_depth is in
/// 0 .. 30 (Newton's options are NewtonSolver's to check).
void check_stepper_options(const StepperOptions& options);

/// Throws std::invalid_argument, naming the stepper, the parameter and the ones it declares,
/// unless every entry of options.scheme_parameters is declared in `declared`.
void check_scheme_parameters(std::string_view stepper, std::span<const SchemeParameter> declared,
                             const StepperOptions& options);

/// The value of `parameter` in options (its default when not given).
double scheme_parameter(const StepperOptions& options, const SchemeParameter& parameter);

/// What one step took. The NewtonReport part adds up its substeps: iterations (those of failed
/// attempts too), factorizations and timings; history is the last substep's.
struct StepReport : NewtonReport {
  int substeps = 1;               ///< steps of the scheme taken (1: not refined)
  int refinements = 0;            ///< failed attempts that were split in two
  double smallest_substep = 0.0;  ///< |h| of the smallest substep (|h| when not refined)
};

/// total += the Newton work of a part of the step: iterations, factorizations and timings added,
/// history replaced by the part's.
void add_newton_work(StepReport& total, const NewtonReport& part);

class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual std::string_view name() const = 0;

  /// Completes a user-given state (q, v at t) into the scheme's initial state: sets p and
  /// sizes lambda. q and v must satisfy g(q) = 0 and G(q) v = 0 to round-off (the rule of
  /// <noether/solvers/initial_values.hpp>); project_initial_state projects them there.
  /// Throws std::invalid_argument for q or v of the wrong size or not finite, and
  /// InconsistentInitialValues for values off the constraints (check_initial_state).
  virtual void initialize(State& state) const = 0;

  /// Advances state by h (step += 1, t += h; a negative h steps back in time), refining the step
  /// where Newton fails (StepperOptions::max_refinement_depth). On a NewtonError (the refinement
  /// exhausted) the state is left unchanged; so it is on the std::invalid_argument thrown for an h
  /// that is zero or not finite, or a state not complete and finite as initialize leaves it
  /// (check_step_input).
  virtual StepReport step(State& state, double h) = 0;

  /// The energy the scheme conserves (or balances against dissipation), at state:
  /// for Livens-type schemes the generalized energy p.v - T(q, v) + V(q).
  virtual double conserved_energy(const State& state) const = 0;
};

/// "step 812, t = 8.12": names a step in NewtonError contexts.
std::string describe_step(const State& state, double h);

/// For Stepper::initialize: throws std::invalid_argument, starting with the stepper's name, unless
/// state.q and state.v hold num_coordinates() finite entries each and t is finite (the message
/// names the field and its size, or the first non-finite entry by its coordinate label), and
/// InconsistentInitialValues unless they lie on the constraints (require_consistent_initial_values).
void check_initial_state(const System& system, const State& state, std::string_view stepper);

/// For Stepper::step: throws std::invalid_argument, starting with the stepper's name, unless h is
/// finite and non-zero (a negative h steps back in time) and the state is complete and finite as
/// initialize leaves it: q, v, p (num_coordinates() each), lambda (num_multipliers()) and t. A
/// missing p or lambda is reported with "call initialize(state) first".
void check_step_input(const System& system, const State& state, double h, std::string_view stepper);

/// For Stepper::conserved_energy: the sizes check_step_input requires (the values may be anything).
void check_state_sizes(const System& system, const State& state, std::string_view stepper);

/// Throws StepperRefusal when `kind` needs a symmetric positive definite matrix, which the named
/// stepper's Newton matrix (unsymmetric, indefinite) is not.
void require_unsymmetric_capable_solver(std::string_view stepper, LinearSolverKind kind);

/// The initial state of a momentum-based stepper: p = M(q) v, lambda = 0.
void initialize_momentum(const System& system, State& state);

}  // namespace noether
