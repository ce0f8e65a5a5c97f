#pragma once
/// The Stepper of a scheme: a scheme (steppers/livens_em.cpp, ggl_vi.cpp, em_ggl.cpp) states its
/// unknowns, one kernel per element kind and its state update; SchemeStepper does the rest, the
/// same for every scheme: the checks of the input, the initial guess, Newton on the step
/// equations assembled by the engine, the permutation to and from the Newton order, and the
/// refinement of a step whose Newton fails into half-steps.
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include <noether/steppers/stepper.hpp>

namespace noether {

/// What a step reads besides its unknowns: the state it starts from and its size h (for an
/// adaptive scheme, Newton's first guess for the size, which is then an unknown).
struct StepInput {
  const State& state;
  double h;
};

/// The row of a scheme's global unknown s (schemes with global sums, engine/scheme_assembly.hpp):
/// phi = value, dphi/ds = derivative, the magnitude of its terms and its rounding floor (Newton's
/// stopping test, solvers/newton.hpp); assembled_row: dphi/dx is the row the kernels wrote
/// (TermOutput::global_row), else 0.
struct GlobalEquation {
  double value = 0.0, derivative = 0.0, scale = 0.0, floor = 0.0;
  bool assembled_row = true;
};

/// What a scheme declares about itself beyond its equations, as `static constexpr SchemeTraits
/// traits{...}` with designated initializers (steppers/scheme_contract.hpp): a misspelled member
/// does not compile, and every member has its type here. The registry's entry of the stepper
/// (StepperInfo) is made from it.
struct SchemeTraits {
  /// The order of convergence of q and p in the step size.
  int order = 0;
  /// conserved_energy(state) is constant to Newton's tolerance along a motion without dampers and
  /// loads (it changes by their work, StepReport::work, otherwise).
  bool conserves_energy = false;
  /// The scheme's own settings (StepperOptions::scheme_parameters), read with scheme_parameter.
  std::span<const SchemeParameter> parameters = {};
  /// Newton starts from v1 and lambda extrapolated from the last steps (steppers/step_predictor.hpp).
  bool warm_start = false;
  /// The scheme chooses the step size (its global unknown s, so global_sums > 0): h is Newton's
  /// first guess, next_state sets t (Stepper::step); Newton starts from the solution of the same
  /// equations with the row of s replaced by s = h (the step of the guessed size).
  bool adaptive_step = false;
  /// Newton estimates the tangent's condition number at the end of every step
  /// (StepReport::condition_estimate; for an adaptive step, of its equations with s free).
  bool estimates_condition = false;
  /// The scheme provides rejection(in, x): why a converged x cannot be taken ("" when it can); the
  /// step then fails as a Newton failure, and is refined.
  bool rejects_solutions = false;
  /// The scalars its kernels add up (TermOutput::global_sum) for one global unknown s beyond its
  /// fields; 0 for none. With s, Newton solves with A bordered by s's column and row
  /// (solvers/bordered_solver.hpp) and the scheme provides global_equation, global_label and
  /// next_state with the sums.
  int global_sums = 0;
  /// The scheme takes rheonomic constraints g(q, t) = 0 (Constraint::rheonomic: driven joints), with
  /// their discrete treatment and the work of their reactions stated in its header; SchemeStepper
  /// refuses a system with one otherwise (refuse_rheonomic_constraints).
  bool rheonomic_constraints = false;
};

/// Defined in steppers/scheme_stepper_impl.hpp, which a scheme's source file includes to
/// instantiate it; users see only this declaration.
template <class Scheme>
class SchemeStepper final : public Stepper {
 public:
  /// Throws StepperRefusal when the scheme cannot treat the system (one without coordinates, say)
  /// or the solver. Shares the ownership of `system` when a std::shared_ptr owns it (a Mechanism's
  /// system); a System owned otherwise must outlive the stepper (engine/system.hpp).
  SchemeStepper(const System& system, const StepperOptions& options);
  ~SchemeStepper() override;

  /// Scheme::name, the name the registry lists (steppers/stepper_registry.cpp) and every refusal
  /// begins with; name() without an instance.
  static std::string_view stepper_name();
  /// Scheme::traits, once the scheme meets the contract (steppers/scheme_contract.hpp: the
  /// instantiation in the scheme's source file does not compile otherwise).
  static const SchemeTraits& traits();
  std::string_view name() const override;
  double conserved_energy(const State& state) const override;
  bool adaptive_step_size() const override;
  FactorizationProfile factorization_profile() const override { return newton_->factorization_profile(); }

 protected:
  /// p = M(q) v, lambda = 0 (the momentum of the initial velocities); refuses (StepperRefusal) a
  /// configuration-dependent M that is not positive semidefinite at q (check_initial_masses).
  void do_initialize(State& state) const override;
  /// refined_step, taken off singular nodes (take_step_off_singular_nodes, its last attempt with
  /// off_near_null_space_) when the scheme's step size is fixed and refinement is on
  /// (max_refinement_depth > 0).
  StepReport do_step(State& state, double h) override;
  /// The warm start's samples (schemes with warm_start; none otherwise), under "predictor.".
  StepperHistory do_checkpoint() override;
  void do_restore_history(const StepperHistory& history) override;

 private:
  class StepEquations;
  struct Attempt;
  /// One step by h, halved recursively where Newton fails (advance); a NewtonError names the
  /// substep that failed and the rank loss of G at its nodes (with_rank_loss).
  StepReport refined_step(State& state, double h);
  /// One step of the scheme from state by h (state advanced on success): its Newton report and
  /// work (StepReport::work).
  StepReport advance_once(State& state, double h);
  /// The scheme's work kernels summed at the solution x of the step from input (SchemeAssembly::work).
  double step_work(const StepInput& input, ConstVectorRef x) const;
  /// advance_once, or, when its Newton fails and depth > 0, two half-steps each refined with depth - 1.
  /// `step_start` receives a copy of state as the first refinement begins (no substep has moved it yet),
  /// so that refined_step can put it back should a substep fail; a step taken whole needs none.
  void advance(State& state, double h, int depth, StepReport& report, Attempt& last, std::optional<State>& step_start);

  const System& system_;
  int max_refinement_depth_;
  std::unique_ptr<const Scheme> scheme_;
  std::shared_ptr<const Distribution> distribution_;  ///< nullptr in one process
  std::unique_ptr<StepEquations> equations_;
  std::unique_ptr<NewtonSolver> newton_;
  /// Newton's updates kept off the tangent's near null space (NewtonSolver::solve_off_near_null_space):
  /// set for the last attempt of take_step_off_singular_nodes.
  bool off_near_null_space_ = false;
};

}  // namespace noether
