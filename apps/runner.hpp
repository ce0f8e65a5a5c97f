#pragma once
/// The run driver: one scenario integrated by one stepper, with its summary and output files.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <noether/apps/model_source.hpp>
#include <noether/apps/output_directory.hpp>
#include <noether/apps/run_configuration.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/thread_limit.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/steppers/stepper.hpp>

namespace noether {

struct Checkpoint;

struct RunOutcome;

/// `--parts`: whether a run over several processes has each build and step its part of the model
/// alone (docs/distributed.md, "Stage 4") or every process hold the whole.
enum class PartsChoice {
  /// over parts for a generated scenario (Scenario::generate: the scaling scenarios, whose
  /// constraints are independent, whose initial states lie on them and which have no actuators,
  /// so that a run over parts leaves out nothing they need); the whole model for any other
  automatic,
  on,   ///< over parts (a model with actuators is refused)
  off,  ///< the whole model on every process
};

struct RunOptions {
  std::string scenario;
  /// The run settings (run_settings(): the stepper and its own parameters, the solver, h, t_end,
  /// max_steps, Newton's, the refinement depth, the redundancy); absent: the scene's, or
  /// default_run_configuration(scenario). Change one through configure().
  std::optional<RunConfiguration> settings;
  /// Upper bound on the worker threads for the whole run (>= 1); the run uses at most the
  /// available cores (capped_threads, engine/thread_limit.hpp).
  int threads = available_threads();
  /// Scenario parameter overrides (`--set key=value`); keys must be parameters of the scenario.
  ParameterValues overrides;
  /// When set, the run's model is this scene's (scenario and overrides stay empty), and the scene's
  /// run settings take the place of the scenario's defaults.
  std::optional<SceneSource> scene;
  /// When set, the directory (created if missing) receives summary.json and timeseries.csv.
  std::optional<std::filesystem::path> output_dir;
  /// Print a carriage-return progress line on stdout (meant for a terminal).
  bool progress = false;
  /// timeseries.csv gets the states of steps 0, output_every, 2 output_every, ... (>= 1).
  int output_every = 1;
  /// `--vtk on|off`: with output_dir, the same states are drawn into vtk/ and listed by motion.pvd.
  bool write_motion = true;
  /// `--reactions on|off`: timeseries.csv gets each joint's reaction on its second body
  /// (reaction:<joint>.fx, ...; apps/model/output_columns.hpp, engine/reaction.hpp).
  bool write_reactions = false;
  /// Read before each step: a non-zero value (the number of the signal that asked, as
  /// InterruptSignals stores it) ends the run as interrupted after the last step completed.
  const std::atomic<int>* interrupt = nullptr;
  /// `--checkpoint-every`: with output_dir, DIR/checkpoint.json is written after every this many
  /// steps (apps/checkpoint.hpp); 0: never.
  int checkpoint_every = 0;
  /// When set, the run continues from this checkpoint (`noether resume`) instead of starting:
  /// the other options must be its options (Checkpoint::options), output_dir its directory (whose
  /// outputs read_checkpoint checks to be the checkpoint's run's); the run keeps its run_id.
  const Checkpoint* resume = nullptr;
  /// The system calls the output files go through (nullptr: the real ones); tests inject the
  /// failures of a full disk here.
  const FileCalls* file_calls = nullptr;
  /// The processes of a run over several (an MPI job: docs/distributed.md), which all run these
  /// options alike: each assembles its part of every Newton system (StepperOptions::distribution),
  /// rank 0 writes output_dir but for the pieces of the drawings, one per process in its vtk/
  /// (VtkSeries), and all stop after the same step when any is asked to. nullptr: one process.
  std::shared_ptr<const Distribution> distribution;
  /// `--parts auto|on|off`: over several processes, whether each builds and steps its part of the
  /// model alone (docs/distributed.md, "Stage 4": the memory of the model, its workspaces and its
  /// factors is divided among the processes) instead of every process holding the whole
  /// (runs_over_parts). Without distribution, or with one process, the run is the whole model's
  /// either way.
  PartsChoice parts = PartsChoice::automatic;
  /// In a run over several processes, called by run() on a process whose run ends in a way the
  /// others may not share (ends_on_every_process false), with the outcome, once its outputs are
  /// written and before what the processes made together is destroyed (its destruction is
  /// collective, and the others may be waiting in a step): the program reports it and ends the
  /// job there (apps/processes.hpp).
  std::function<void(const RunOutcome&)> lone_ending;

  /// The run settings to change: settings, set first to the defaults they take when absent (the
  /// scene's, or default_run_configuration(scenario)); so give scene or scenario first. Throws
  /// std::invalid_argument for an unknown scenario.
  RunConfiguration& configure();
};

/// Where a run stands; summary.json's "status" (docs/output.md).
enum class RunStatus { running, completed, failed, interrupted };
/// Why a run failed: Newton did not converge; the stepper refused the system, its initial state
/// or a step's settings; an output file could not be written; anything else (out of memory).
enum class FailureCause { none, newton, refused, output, error };

/// "running", "completed", "failed", "interrupted".
std::string_view to_string(RunStatus status);
/// "newton", "refused", "output", "error" ("" for none).
std::string_view to_string(FailureCause cause);

/// Marks a quantity a failed run never computed.
inline constexpr double not_computed = std::numeric_limits<double>::quiet_NaN();

/// An adaptive run stops (ok = false) after this many times round(t_end / h) steps: its step size
/// has shrunk a hundredfold on average, and a step that keeps shrinking would never reach t_end.
inline constexpr std::int64_t kAdaptiveStepLimit = 100;

/// What a run is set to do, fixed before its first step (run() makes it from the options, checking
/// every one, before the model is built) and only read after: the stepping reads its settings
/// here, the summaries report them.
struct RunPlan {
  /// Names the run in summary.json and in its checkpoints, so that `noether resume` continues a
  /// checkpoint only over the outputs of its own run: 16 hexadecimal digits of a random 64-bit
  /// number, new for each run; a resumed run keeps its checkpoint's (a new one when the checkpoint,
  /// of format version 1 to 3, names none).
  std::string run_id;
  std::string scenario;  ///< the scenario's name, or the scene's
  /// Where the model came from: what rebuilds it (build_model(describe(source))).
  ModelSource source;
  /// The settings the run uses: defaults with the options applied (resolve_run_configuration).
  RunConfiguration configuration;
  ParameterValues parameters;  ///< every resolved scenario parameter (none for a scene)
  int threads = 0;             ///< the bound on the worker threads: the options' capped at the cores (ThreadLimit)
  bool parts = false;          ///< each process builds and steps its part of the model (RunOptions::parts, mpirun)
};

/// What a run measured over the states it reached, the initial one included: RunRecorder gathers
/// it and owns it; a checkpoint saves it. Quantities never computed (the stepper refused the
/// system) are NaN.
struct RunStatistics {
  std::int64_t steps = 0;           ///< steps completed (and recorded)
  double t_reached = not_computed;  ///< the time of the last state completed
  /// The smallest and largest step taken (StepReport::step_size): h for a fixed-step run.
  double step_size_min = not_computed, step_size_max = not_computed;
  /// The largest estimate of the step equations' condition number kappa_1 over the steps, for a
  /// stepper that reports one (StepperInfo::reports_condition); NaN otherwise.
  double condition_estimate_max = not_computed;
  std::int64_t newton_iterations_total = 0;
  int newton_iterations_max = 0;
  /// Numeric factorizations of the Newton matrix summed over the steps (fewer than the
  /// iterations with chord steps or modified Newton).
  std::int64_t newton_factorizations_total = 0;
  /// Steps with a Newton solve that ended stalled (NewtonReport::stalled_residual: accepted at a
  /// scaled residual above the stopping test's, within 100 times the tolerance, where a step ends
  /// at or near a singular configuration), and the largest scaled residual so accepted (0: none).
  std::int64_t newton_stalled_steps = 0;
  double newton_stalled_residual_max = 0.0;
  /// Evaluations of the step equations summed over the steps (NewtonReport::evaluations,
  /// matrix_evaluations).
  struct NewtonEvaluations {
    std::int64_t residuals = 0;    ///< every evaluation of the residual
    std::int64_t with_matrix = 0;  ///< of them, those that also evaluated the Newton matrix
  };
  /// None (not counted) for a run resumed from a checkpoint of format version 1, which did not save them.
  std::optional<NewtonEvaluations> newton_evaluations = NewtonEvaluations{};
  /// Summed over all steps: Newton's time in assembly, numeric factorization and solves.
  NewtonTimings phase_seconds;
  /// A step of the run's grid whose Newton failed and that was taken as substeps instead.
  struct RefinedStep {
    std::int64_t step;       ///< the step's number (its end)
    double t;                ///< the time it started at
    int substeps;            ///< steps of the scheme it took
    double smallest_substep; ///< |h| of the smallest
  };
  /// The refined steps: how many, the first kMaxListedRefinements of them, and the smallest
  /// substep of the run (h when nothing was refined).
  static constexpr std::size_t kMaxListedRefinements = 100;
  std::int64_t refined_steps = 0;
  std::vector<RefinedStep> refinements;
  double smallest_substep = not_computed;
  /// What the projection of the initial values onto the constraints did (solvers/initial_values.hpp),
  /// and its description ("" when the initial values met the constraints).
  InitialProjection initial_projection;
  std::string initial_projection_note;
  /// The stepper's conserved energy at step 0 and at the last step completed.
  double energy_initial = not_computed, energy_final = not_computed;
  /// max over steps of |E^{n+1} - E^n| of that energy.
  double energy_max_abs_increment = not_computed;
  /// W, the work done on the system (StepReport::work: dampers, loads) summed over the steps
  /// completed, and max over steps of |E^{n+1} - E^n - W_n|, the residual of the discrete energy
  /// balance (Newton's tolerance for a stepper that conserves its energy; its energy error for the
  /// others); both NaN when a run resumed from a checkpoint that did not save them (version < 5).
  double work_total = not_computed, energy_balance_max_abs = not_computed;
  /// max over states of max|g(q)| and of max|G(q) v|.
  double constraint_max_abs = not_computed, velocity_constraint_max_abs = not_computed;
  /// Each of the model's invariants with its largest change over the states reached (Invariant).
  std::vector<std::pair<std::string, double>> invariant_drifts;
  /// Each summarized probe (Probe::summarized) with its largest magnitude over the states reached.
  std::vector<std::pair<std::string, double>> probe_maxima;
  /// A momentum component the model declares conserved (Model::conserved_momenta): its value at
  /// step 0 and at the last state reached, and its largest change max_n |I_n - I_0|.
  struct ConservedMomentum {
    std::string name;  ///< "angular_momentum.z"
    double initial = not_computed, final = not_computed, drift = not_computed;
  };
  std::vector<ConservedMomentum> conserved_momenta;
  Eigen::Vector3d momenta_about = Eigen::Vector3d::Zero();  ///< the point J is taken about
};

/// The run's wall-clock time in three parts (docs/output.md), measured by the run itself:
/// setup_seconds from the start of run() to the first step (building the model, making the stepper
/// with its pattern analysis, opening the outputs, projecting and initializing the initial state,
/// recording it); stepping_seconds, the step loop with the rows and drawings it writes;
/// closing_seconds, from the end of the loop to the final summary (the last good state's row,
/// final_state.json, closing the time series and motion.pvd). wall_seconds is their sum.
struct RunTimes {
  double setup_seconds = 0.0, stepping_seconds = 0.0, closing_seconds = 0.0, wall_seconds = 0.0;
};

/// The files of the output directory a run wrote, by name (RunOutputs); empty: none.
struct OutputFiles {
  /// The time series (TimeseriesCsv): timeseries.csv.partial while the run goes on or when it
  /// could not be closed, timeseries.csv after.
  std::string timeseries;
  /// motion.pvd once it is written (VtkSeries); final_state.json once it is written (the last
  /// good state).
  std::string motion, final_state;
};

/// How a run ended: running until it does; then completed, failed (why, and the step it could not
/// complete) or interrupted (by which signal). Changed only by its three transitions.
struct RunEnding {
  RunStatus status = RunStatus::running;
  /// When failed: why, and the step it could not complete (0: it failed at its initial state) with
  /// the time that step started from, the last state completed, whose row closes timeseries.csv;
  /// when the outputs could not be closed after the last step: steps and t_reached. step is -1
  /// and t NaN otherwise.
  struct Failure {
    FailureCause cause = FailureCause::none;
    std::int64_t step = -1;
    double t = not_computed;
    /// Over several processes: every process met this failure at the same point, having agreed on
    /// it (an output error, SharedOutputError: a process could not write its piece of a drawing),
    /// or reaching it by the decisions they share (an adaptive run's step limit).
    bool agreed = false;
  };
  Failure failure;
  /// When interrupted: the signal that asked (SIGHUP, SIGINT, SIGTERM); 0 otherwise.
  int interrupt_signal = 0;
  /// Unless completed: why, as one line (the NewtonError, refusal or output error message; the
  /// interruption's signal, step and time).
  std::string error;

  /// status completed.
  void complete();
  /// status failed for `cause` at `step` from `t`, with `message` as error (agreed: by every
  /// process, Failure::agreed); when the run had failed already, the message is added to the first
  /// failure's, which stays.
  void fail(FailureCause cause, const std::string& message, std::int64_t step, double t, bool agreed = false);
  /// status interrupted by `signal` after `steps` steps, at t_reached.
  void interrupt(int signal, std::int64_t steps, double t_reached);
};

/// What run() returns: the plan it carried out, the statistics its recorder gathered, its times,
/// the files it wrote, the equations it dropped and how it ended. Each part is made by one object
/// and copied here once the run is over.
struct RunOutcome {
  RunPlan plan;
  RunStatistics statistics;
  RunTimes times;
  OutputFiles files;
  /// The constraint equations dropped from the step equations because they depend on the others
  /// along the motion, each as describe_dependency says it; their residuals stay in the outputs.
  std::vector<std::string> dropped_equations;
  /// How the stepper's linear solver factored the Newton matrices: the ordering it chose and why,
  /// and the fill and flops of its first factorization under it (Stepper::factorization_profile;
  /// empty when no step factored one).
  FactorizationProfile factorization;
  RunEnding ending;

  /// Whether the run completed.
  bool ok() const { return ending.status == RunStatus::completed; }
};

/// The run settings of options (RunOptions::settings, or their defaults when absent); throws
/// std::invalid_argument for an unknown scenario, a scenario parameter resolve_parameters refuses
/// (checked first: a bad parameter is the more basic error, whatever the run settings), or a
/// configuration check_run_configuration refuses.
RunConfiguration resolve_run_configuration(const RunOptions& options);

/// The plan of options (every option checked, the scenario's parameters resolved): what run()
/// carries out. Throws std::invalid_argument, as run() does before anything is written.
RunPlan plan_run(const RunOptions& options);

/// Runs options.scenario (or options.scene) for step_count steps and writes the outputs when asked (RunOutputs:
/// summary.json says "running" from the start, the final status at the end). Whatever ends the
/// run once it has begun ends it with a status and both files: a NewtonError, the stepper's
/// refusal (StepperRefusal, or std::invalid_argument for the initial state or a step), an output
/// error, an interruption (options.interrupt), any other exception (out of memory).
/// Throws, before anything is written: std::invalid_argument for bad options (unknown scenario,
/// stepper or parameter; a run setting check_run_configuration refuses; threads < 1,
/// output_every < 1; a model too large for the memory), naming the value and what is accepted;
/// OutputError when the output directory or the running summary cannot be written.
/// The initial values are projected onto the constraints first (project_initial_state;
/// RunStatistics::initial_projection); a failed projection fails the run (cause refused).
/// An adaptive stepper (StepperInfo::adaptive_step_size) starts with h, gets the size of its last
/// step as its next first guess, and runs until its first state at or past t_end (t_reached); a
/// run that takes more than kAdaptiveStepLimit times step_count steps before fails (cause error).
/// Over parts a process keeps of a scene's description only its part once the part is built
/// (SceneSource::scene null in its own options and plan): process 0 of a run that writes
/// checkpoints keeps the whole, which checkpoint.json holds. A caller's copy of options keeps
/// what it refers to alive; `noether run` moves its options in.
RunOutcome run(RunOptions options);

/// Whether every process of a run over several reaches this ending together: a completed or
/// interrupted run (they agree on the stop), a Newton failure or a refusal (every process takes the
/// same decisions on the same equations), an agreed output error (a piece of a drawing:
/// Failure::agreed), an adaptive run's step limit (Failure::agreed). Another output error (of a
/// file rank 0 alone writes) or any other error (memory running out) may be one process's alone.
bool ends_on_every_process(const RunEnding& ending);

/// Whether each process of the run builds and steps its part of the model: RunOptions::parts over
/// several processes, PartsChoice::automatic resolved for the options' scenario or scene.
bool runs_over_parts(const RunOptions& options);

/// Whether `choice` runs a model over parts on several processes: `generated` says whether the
/// model is a generated scenario's (Scenario::generate), which PartsChoice::automatic runs so.
bool over_parts(PartsChoice choice, bool generated);

/// The name of a choice as `--parts` takes it: auto, on, off.
std::string_view to_string(PartsChoice choice);

}  // namespace noether
