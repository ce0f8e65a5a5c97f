#pragma once
/// The run driver: one scenario integrated by one stepper, with its summary and output files.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

#include <noether/apps/model_source.hpp>
#include <noether/apps/run_configuration.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/steppers/stepper.hpp>

namespace noether {

/// Every core the machine offers (the default thread count).
int all_cores();

struct RunOptions {
  std::string scenario;
  /// The run settings chosen (`--stepper`, `--solver`, `--h`, `--t`, `--newton-tol`,
  /// `--newton-max-iterations`, `--newton`, `--newton-refresh`); each one absent keeps its value in
  /// default_run_configuration(scenario). newton_refresh_contraction acts on modified Newton only.
  std::optional<std::string> stepper;
  std::optional<LinearSolverKind> solver;
  std::optional<double> h, t_end;
  std::optional<double> newton_tolerance;
  std::optional<int> newton_max_iterations;
  std::optional<bool> newton_modified;
  std::optional<double> newton_refresh_contraction;
  /// `--refine-depth`: how many times in a row a failing step may be halved (0: never).
  std::optional<int> max_refinement_depth;
  /// `--redundant`: what to do with constraint equations that depend on the others.
  std::optional<RunConfiguration::Redundancy> redundancy;
  /// Upper bound on the worker threads for the whole run (>= 1).
  int threads = all_cores();
  /// Scenario parameter overrides (`--set key=value`); keys must be parameters of the scenario.
  ParameterValues overrides;
  /// When set, the run's model is this scene's (scenario and overrides stay empty), and the scene's
  /// run settings take the place of the scenario's defaults.
  std::optional<SceneSource> scene;
  /// The stepper's own parameters (`--set key=value` for a key the stepper declares, e.g. evi's S).
  ParameterValues scheme_parameters;
  /// When set, the directory (created if missing) receives summary.json and timeseries.csv.
  std::optional<std::filesystem::path> output_dir;
  /// Print a carriage-return progress line on stdout (meant for a terminal).
  bool progress = false;
  /// timeseries.csv gets the states of steps 0, output_every, 2 output_every, ... (>= 1).
  int output_every = 1;
};

/// Marks a quantity a failed run never computed.
inline constexpr double not_computed = std::numeric_limits<double>::quiet_NaN();

/// What a run did. Maxima run over every state reached, the initial one included. Quantities
/// that were never computed (the stepper refused the system) are NaN.
struct RunResult {
  std::string scenario;  ///< the scenario's name, or the scene's
  /// Where the model came from: what rebuilds it (build_model(describe(source))).
  ModelSource source;
  /// The settings the run used: defaults with the options applied.
  RunConfiguration configuration;
  std::int64_t steps = 0;  ///< steps completed
  std::int64_t newton_iterations_total = 0;
  int newton_iterations_max = 0;
  /// Numeric factorizations of the Newton matrix summed over the steps (fewer than the
  /// iterations with chord steps or modified Newton).
  std::int64_t newton_factorizations_total = 0;
  /// Making the stepper, stepping and writing the time series.
  double wall_seconds = 0.0;
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
  /// When the run failed in a step: that step's number and start time (the last good state is
  /// the one before it, written as the last row of timeseries.csv); -1 and NaN otherwise.
  std::int64_t failed_step = -1;
  double failed_t = not_computed;
  /// The constraint equations dropped from the step equations because they depend on the others
  /// along the motion, each as describe_dependency says it; their residuals stay in the outputs.
  std::vector<std::string> dropped_equations;
  /// What the projection of the initial values onto the constraints did (solvers/initial_values.hpp),
  /// and its description ("" when the initial values met the constraints).
  InitialProjection initial_projection;
  std::string initial_projection_note;
  /// The stepper's conserved energy at step 0 and at the last step completed.
  double energy_initial = not_computed, energy_final = not_computed;
  /// max over steps of |E^{n+1} - E^n| of that energy.
  double energy_max_abs_increment = not_computed;
  /// max over states of max|g(q)| and of max|G(q) v|.
  double constraint_max_abs = not_computed, velocity_constraint_max_abs = not_computed;
  bool ok = false;
  std::string error;           ///< the NewtonError or StepperRefusal message when !ok
  ParameterValues parameters;  ///< every resolved scenario parameter
  /// Each of the model's invariants with its largest change over the states reached (Invariant).
  std::vector<std::pair<std::string, double>> invariant_drifts;
  int threads = 0;
};

/// default_run_configuration of options.scenario with the run settings options gives; throws
/// std::invalid_argument for an unknown scenario or a configuration check_run_configuration refuses.
RunConfiguration resolve_run_configuration(const RunOptions& options);

/// Runs options.scenario (or options.scene) for round(t_end / h) steps and writes the outputs (when
/// asked) even when the run fails. The initial values are projected onto the constraints first
/// (project_initial_state; result.initial_projection). A NewtonError, a StepperRefusal or a failed
/// projection ends the run with ok = false.
/// Throws std::invalid_argument for bad options (unknown scenario, stepper or parameter; a run
/// setting check_run_configuration refuses; threads < 1, output_every < 1), naming the value and
/// what is accepted, and std::runtime_error when an output file cannot be written.
RunResult run(const RunOptions& options);

}  // namespace noether
