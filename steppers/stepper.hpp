#pragma once
/// Time steppers: one step of a structure-preserving scheme on a System.
#include <atomic>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <noether/engine/distribution.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>
#include <noether/solvers/newton.hpp>
#include <noether/steppers/stepper_history.hpp>

namespace noether {

struct SystemPart;

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
  /// The Newton matrices' linear solver. By default chosen by the mechanism (automatic,
  /// make_linear_solver): in one process KLU, which on the steppers' saddle-point matrices factors
  /// fastest and refactorizes new values in place (docs/performance.md, "Current figures of the
  /// step-cost suite"), unless its first factorization shows wide fronts that UMFPACK factors in
  /// clearly fewer flops (AutoSolver); over several processes schur or mumps by the size of the
  /// processes' interface. CHOLMOD is refused: the Newton matrices are unsymmetric and indefinite.
  LinearSolverKind solver = LinearSolverKind::automatic;
  /// The solver's fill-reducing ordering (FillOrdering; klu, umfpack, schur and auto take any, the
  /// others automatic only: the stepper's construction throws LinearSolverError otherwise).
  FillOrdering ordering = FillOrdering::automatic;
  NewtonOptions newton;
  /// Step refinement: a step whose Newton fails is taken as two half-steps of the same scheme,
  /// each refined the same way, at most this many times in a row (smallest substep h / 2^depth);
  /// 0 turns it off. Every substep is a full step of the scheme, so what the scheme keeps
  /// (symplecticity, momentum maps, energy) it keeps over the refined step too. 0 to 30.
  int max_refinement_depth = 8;
  /// Values of the scheme's own parameters by name (SchemeParameter); those not given take the
  /// scheme's defaults. A name the scheme does not declare is refused (check_scheme_parameters).
  std::map<std::string, double, std::less<>> scheme_parameters = {};
  /// Constraint equations that depend on the others along the motion (structural_redundancy,
  /// <noether/solvers/redundancy.hpp>: a Bricard linkage, two hinges on one axis) leave the Newton
  /// matrix singular at every step, so that steps fail or stall on a wrong motion. initialize looks
  /// for them, at the cost of one rank-revealing QR of G(q), and refuses the system when it finds
  /// some (refuse), or steps the system as it is without looking (allow: for a caller that has
  /// dropped or examined them itself, as the `noether` program does).
  enum class RedundantEquations { refuse, allow };
  RedundantEquations redundant_equations = RedundantEquations::refuse;
  /// The processes that step the system together (engine/distribution.hpp; an MPI job,
  /// distributed/), each assembling the terms it owns; nullptr for one process. Every process
  /// makes the stepper alike and calls its functions alike (they are collective), and the Newton
  /// matrices' linear solver (newton.linear_solver_factory) must sum the processes' parts.
  std::shared_ptr<const Distribution> distribution = nullptr;
  /// With distribution: the system given is this process's part of the whole, and `part` says
  /// how it sits in the whole (engine/system_part.hpp); the state is the part's. nullptr: every
  /// process holds the whole system. Over parts the Newton matrices are solved by schur (auto is
  /// schur), the redundancy check is left to the caller (redundant_equations allow) and a scheme
  /// with a global unknown (sem-vi) is refused.
  std::shared_ptr<const SystemPart> part = nullptr;
};

/// Throws std::invalid_argument naming the option and its value unless max_refinement_depth is in
/// 0 .. 30 (Newton's options are NewtonSolver's to check).
void check_stepper_options(const StepperOptions& options);

/// Over parts, where each process checks its own part (`parts`: the processes that hold the parts;
/// nullptr when this process holds the whole system): whether any process refused (`refusal`
/// set), agreed by all (collective: first_process_with), so that every process throws at the same
/// point. A process that refused rethrows its refusal, the others a StepperRefusal naming the
/// lowest process that refused, in its words (text_of_process). Otherwise rethrows `refusal`, if
/// set.
void agree_on_refusal(const Distribution* parts, std::exception_ptr refusal);
/// The processes that hold the parts of a stepper over parts (options.part), else nullptr.
const Distribution* part_processes(const StepperOptions& options);

/// Throws std::invalid_argument, naming the stepper, the parameter and the ones it declares,
/// unless every entry of options.scheme_parameters is declared in `declared`.
void check_scheme_parameters(std::string_view stepper, std::span<const SchemeParameter> declared,
                             const StepperOptions& options);

/// The value of `parameter` in options (its default when not given).
double scheme_parameter(const StepperOptions& options, const SchemeParameter& parameter);

/// What one step took. The NewtonReport part adds up its substeps: iterations (those of failed
/// attempts too), and the factorizations, evaluations and timings of the attempts that converged;
/// history is the last substep's, condition_estimate the largest of the substeps' (NaN for a
/// stepper that does not estimate it).
struct StepReport : NewtonReport {
  /// Steps of the scheme taken: 1 when not refined; a composition's, the steps of its base
  /// scheme (its substeps, more when one was refined).
  int substeps = 1;
  /// Attempts split in two: halved where Newton failed, or split at a third where it stalled or
  /// failed (take_step_off_singular_nodes); 0: not refined.
  int refinements = 0;
  /// |size| of the smallest substep: |h| for a scheme not refined; a composition's smallest step
  /// of its base scheme.
  double smallest_substep = 0.0;
  /// The time the step advanced: h, or for an adaptive stepper (sem-vi) the size its scheme chose.
  double step_size = 0.0;
  /// W, the discrete work done on the system over the step (its substeps' summed): the work of
  /// the dampers, loads and any other element the scheme gives a work kernel
  /// (SchemeAssembly::work). For a scheme that conserves its energy (SchemeTraits::conserves_energy)
  /// the discrete energy balance conserved_energy(after) - conserved_energy(before) = W holds to
  /// Newton's tolerance; for the others W is the midpoint rule's work of the forces, and the
  /// balance's residual is the scheme's energy error (docs/steppers.md, "The discrete energy balance").
  /// Over parts (StepperOptions::part), the whole system's, summed over the processes.
  double work = 0.0;
};

/// total += the Newton work of a part of the step: iterations, factorizations, evaluations and
/// timings added, history replaced by the part's, the larger stalled residual, near_null_directions
/// and condition estimate kept (NaN counts as none).
void add_newton_work(NewtonReport& total, const NewtonReport& part);

/// A time stepper on one System: completes an initial state, then advances it step by step.
///
/// Threads (the model/data rule): the System is the model, shared read-only; a Stepper is data,
/// one thread's at a time, as is the State it steps. Several steppers may step one System in as
/// many threads. One stepper's step, checkpoint and restore_history are never run concurrently:
/// a call made while another of them runs on the same stepper (from a second thread, or from a
/// callback of the stepper's own elements) throws std::logic_error naming the stepper, and the
/// call that runs is not disturbed. The const functions (name, initialize, conserved_energy,
/// adaptive_step_size) keep nothing in the stepper and may be called from any thread.
///
/// While it lives, a stepper uses its System (SystemUse): the System refuses further blocks and
/// elements, which the stepper's equations, sized when it was made, would leave out.
///
/// The public functions check and guard; a stepper implements the protected do_ functions.
class Stepper {
 public:
  virtual ~Stepper();
  Stepper(const Stepper&) = delete;
  Stepper& operator=(const Stepper&) = delete;
  virtual std::string_view name() const = 0;

  /// Completes a user-given state (q, v at t) into the scheme's initial state: sets p and
  /// sizes lambda. q and v must satisfy g(q) = 0 and G(q) v = 0 to round-off (the rule of
  /// <noether/solvers/initial_values.hpp>); project_initial_state projects them there.
  /// Throws std::invalid_argument for q or v of the wrong size or not finite,
  /// InconsistentInitialValues for values off the constraints (check_initial_state), and, unless
  /// StepperOptions::redundant_equations allows them, StepperRefusal for constraint equations that
  /// depend on the others along the motion, naming them and the calls that drop them
  /// (require_no_redundancy). On a throw the state is left as it was.
  void initialize(State& state) const;

  /// Advances state by h (step += 1, t += h; a negative h steps back in time), refining the step
  /// where Newton fails (StepperOptions::max_refinement_depth) and, with refinement on, taking a
  /// step whose Newton stalls or fails again off a singular instant (take_step_off_singular_nodes;
  /// not an adaptive stepper). On a NewtonError (the refinement
  /// exhausted) the state is left unchanged; so it is on the std::invalid_argument thrown for an h
  /// that is zero or not finite, or a state not complete and finite as initialize leaves it
  /// (check_step_input), and on the std::logic_error thrown when another call runs on this stepper.
  /// An adaptive stepper (adaptive_step_size(): its scheme takes the step size as an unknown)
  /// advances t by the size its equations give, of the sign of h (StepReport::step_size); h is
  /// Newton's first guess for it, and a refined step is two steps from the guess h/2.
  StepReport step(State& state, double h);

  /// The energy the scheme conserves (or balances against dissipation), at state (over parts,
  /// StepperOptions::part, the whole system's, summed over the processes: collective):
  /// for Livens-type schemes the generalized energy p.v - T(q, v) + V(q). NaN where the scheme's
  /// energy is not defined yet (sem-vi: the discrete energy its first step sets).
  virtual double conserved_energy(const State& state) const = 0;

  /// True when the scheme chooses each step's size (see step).
  virtual bool adaptive_step_size() const { return false; }

  /// Everything the stepper keeps between steps that its next steps depend on (the warm start's
  /// samples, steppers/step_predictor.hpp; a composition's base's), for a checkpoint
  /// (apps/checkpoint.hpp) to save beside the State, which carries the rest (sem-vi's discrete
  /// energy). What no history holds, the factorization kept between steps (KLU's pivot sequence,
  /// modified Newton's factors), is dropped: the next step factors afresh. After it, this stepper
  /// and a stepper made alike (same kind, system and options) given the history by
  /// restore_history take bitwise the same steps from the same state.
  StepperHistory checkpoint();
  /// Replaces the history by one checkpoint returned; throws std::invalid_argument naming the
  /// entry that is missing or of the wrong size for the system.
  void restore_history(const StepperHistory& history);

  /// How the Newton matrices are factored (LinearSolver::factorization_profile): the ordering chosen
  /// and the fill and flops of its first factorization; empty before the first step factors one.
  /// A composition reports its base scheme's.
  virtual FactorizationProfile factorization_profile() const = 0;

 protected:
  /// Uses `system` (SystemUse, named "stepper '<name>'") for as long as the stepper lives;
  /// `redundant` is StepperOptions::redundant_equations (allow for a stepper whose parts check).
  Stepper(const System& system, std::string_view name, StepperOptions::RedundantEquations redundant);

  /// initialize without the redundancy check: check_initial_state, then p and lambda.
  virtual void do_initialize(State& state) const = 0;
  /// step, with the input unchecked and no other call running on this stepper.
  virtual StepReport do_step(State& state, double h) = 0;
  virtual StepperHistory do_checkpoint() = 0;
  virtual void do_restore_history(const StepperHistory& history) = 0;

 private:
  /// Marks a call of step, checkpoint or restore_history as running for its duration; throws
  /// std::logic_error when another one runs.
  class ExclusiveCall;

  SystemUse system_use_;
  StepperOptions::RedundantEquations redundant_equations_;
  /// The guarded call running on this stepper ("step", ...), null when none: one atomic exchange
  /// per call.
  std::atomic<const char*> running_{nullptr};
};

/// "step 812 (t = 8.12 -> 8.13)": names a step in NewtonError contexts.
std::string describe_step(const State& state, double h);
/// "step 812 (from t = 8.12, first guess h = 0.01)": names a step of an adaptive stepper.
std::string describe_adaptive_step(const State& state, double h);

/// For Stepper::initialize: throws StepperRefusal, starting with the stepper's name, when the
/// system has constraint equations that depend on the others along the motion at q
/// (structural_redundancy), naming each with what it depends on (describe_redundancy) and the
/// calls that drop them.
void require_no_redundancy(const System& system, ConstVectorRef q, std::string_view stepper);

/// For Stepper::initialize: throws std::invalid_argument, starting with the stepper's name, unless
/// state.q and state.v hold num_coordinates() finite entries each and t is finite (the message
/// names the field and its size, or the first non-finite entry by its coordinate label) and every
/// element is defined at state.q (undefined_element: "livens-em: at the initial positions, potential
/// 'spring': the spring's two points coincide ..."), and InconsistentInitialValues unless they lie
/// on the constraints (require_consistent_initial_values).
void check_initial_state(const System& system, const State& state, std::string_view stepper);

/// "potential 'spring': the spring's two points coincide ...": the first element (inertias,
/// potentials, constraints, dissipations, loads, in the system's order) undefined at q
/// (Element::singularity), or "" when each is defined there.
std::string undefined_element(const System& system, ConstVectorRef q);

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

/// system, unless it has no coordinates: then throws StepperRefusal "<stepper>: the system has no
/// coordinates; ..." (before a solver meets an empty matrix).
const System& require_coordinates(const System& system, std::string_view stepper);

/// Throws StepperRefusal naming the stepper and the first rheonomic constraint (a driven joint,
/// Constraint::rheonomic) of the system, for a stepper whose scheme does not yet take g(q, t) = 0.
void refuse_rheonomic_constraints(const System& system, std::string_view stepper);
/// For a stepper whose scheme has no kernels for actuators (engine/actuator.hpp): system, unless
/// it has an actuator; then throws StepperRefusal naming the stepper, the actuator, the reason (its
/// equations have no step force between q0 and q1 whose work is the actuator's) and the steppers
/// that take actuators.
const System& refuse_actuators(const System& system, std::string_view stepper);

/// For Stepper::initialize: throws StepperRefusal, naming the stepper and the element, unless
/// every configuration-dependent inertia whose M must be positive semidefinite
/// (MassPositivity::everywhere) has such an M(q) at q (num_coordinates()). Constant masses are
/// checked by their elements when built (ConstantMassInertia, DirectorInertia).
void check_initial_masses(const System& system, ConstVectorRef q, std::string_view stepper);

/// Takes a step of a fixed-size stepper by `take` (the stepper's step with its halving refinement)
/// so that no node of its grid sits at a singular configuration of the constraints: where G(q)
/// loses rank at a node (an end of the step or of a substep, lobatto4's q_mid, the midpoint of
/// livens-em and em-ggl), the multipliers along the lost rank and the positions along its direction
/// are set by rounding alone, amplified by the inverse of G's vanishing singular value, and Newton
/// stalls (NewtonReport::stalled_residual) or fails there. Halving cannot help: every node of a
/// step is a node of its halves at every depth (the halves of a step end at its midpoint). So a
/// step that stalls or fails is taken again from its start as two steps of h/3 and 2h/3, and
/// failing that of 2h/3 and h/3: only the step's end is a node of the old grid then. The first
/// split whose steps neither stall nor fail is taken (t = state.t + h, step + 1; StepReport
/// counts one refinement more and the work of every attempt). A singular instant at the step's end
/// remains (the caller's grid puts it there): failing both splits, the whole step is taken by
/// `take_off_near_null_space` (unless empty), `take` with Newton's updates kept off the tangent's
/// near null space (NewtonSolver::solve_off_near_null_space), where the multipliers along the lost
/// rank keep their warm start instead of the rounding that kept Newton from converging; it is
/// the last resort, as the splits, where they work, are more accurate (lobatto4 on nfourbar
/// n = 40 with a middle node 7e-7 s from the crossing: an energy step of 1e-14 of the energy
/// split, 1.7e-10 off the near null space). Otherwise the stalled step, or the first NewtonError
/// is thrown; docs/steppers.md, "Singular configurations". On a throw the state is unchanged.
StepReport take_step_off_singular_nodes(State& state, double h, const std::function<StepReport(State&, double)>& take,
                                        const std::function<StepReport(State&, double)>& take_off_near_null_space);

/// error, with what the rank of the constraint Jacobian says about it at the nodes of the step
/// that failed, from last_good by h: its start, and its middle and end predicted at last_good's
/// velocity (describe_rank_loss, solvers/redundancy.hpp; the first node of the three where G(q)
/// loses rank). Nothing when G has full rank at all three; a singular Newton matrix with dependent
/// constraint equations is blamed on those equations (the residual row it would otherwise name is
/// a symptom); any other failure gets "the mechanism is at or near a singular configuration at
/// t = ...", the dependency and what to do appended, as the cause to look at first.
NewtonError with_rank_loss(const System& system, const State& last_good, double h, const NewtonError& error);

}  // namespace noether
