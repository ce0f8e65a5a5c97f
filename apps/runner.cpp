#include <noether/apps/runner.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <stdexcept>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/interrupt_signals.hpp>
#include <noether/apps/output_agreement.hpp>
#include <noether/apps/prepared_stepper.hpp>
#include <noether/apps/run_outputs.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/run_parts.hpp>
#include <noether/apps/run_recorder.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/thread_limit.hpp>
#include <noether/solvers/linear/blas_threads.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

/// The steppers whose State::lambda is mu / h, the impulse RATTLE applies at q_n, the first of the
/// step's two constraint impulses (the second, nu at q_{n+1}, is not in the State:
/// steppers/evi.hpp, sem_vi.hpp): -G^T lambda is about half the constraint force, so their rows
/// would report half the reactions.
bool splits_constraint_impulse(const std::string& stepper) {
  return stepper == "evi" || stepper == "midpoint-vi" || stepper == "sem-vi";
}

/// A new run's id (RunPlan::run_id): 64 random bits, from the system's entropy source mixed with
/// the clock, so that two runs share one with probability 2^-64.
std::string new_run_id() {
  std::random_device entropy;
  const auto clock = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  const std::uint64_t bits = ((std::uint64_t{entropy()} << 32) | entropy()) ^ clock;
  std::array<char, 17> text{};
  std::snprintf(text.data(), text.size(), "%016llx", static_cast<unsigned long long>(bits));
  return text.data();
}

/// The moments that divide a run's wall-clock time (RunTimes): its start, the start of the step
/// loop and its end (the same moment when the loop was never reached).
class RunClock {
 public:
  using Clock = std::chrono::steady_clock;

  void start_stepping() {
    stepping_ = Clock::now();
    stepped_ = true;
  }
  void start_closing() {
    closing_ = Clock::now();
    if (!stepped_) stepping_ = closing_;
  }
  /// The three parts and their sum, ending now.
  RunTimes split() const {
    const Clock::time_point end = Clock::now();
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    return {seconds(stepping_ - start_), seconds(closing_ - stepping_), seconds(end - closing_), seconds(end - start_)};
  }

 private:
  Clock::time_point start_ = Clock::now(), stepping_ = start_, closing_ = start_;
  bool stepped_ = false;
};

/// The signal that asked the run to stop (RunOptions::interrupt), 0 when none did; in a run over
/// several processes, the signal of the lowest rank asked, on every process (collective), so
/// that all stop after the same step.
int interrupt_requested(const RunOptions& options) {
  const int own = options.interrupt ? options.interrupt->load(std::memory_order_relaxed) : 0;
  const Distribution* processes = options.distribution.get();
  if (!processes || processes->ranks() == 1) return own;
  std::vector<double> signals(static_cast<std::size_t>(processes->ranks()), 0.0);
  signals[static_cast<std::size_t>(processes->rank())] = own;
  processes->sum(signals);
  const auto asked = std::ranges::find_if(signals, [](double signal) { return signal != 0.0; });
  return asked == signals.end() ? 0 : static_cast<int>(*asked);
}

/// Whether the step that reached `state` is followed by a checkpoint (RunOptions::checkpoint_every).
bool checkpoint_due(const RunOptions& options, const State& state) {
  return options.checkpoint_every > 0 && state.step % options.checkpoint_every == 0;
}

/// An adaptive run that took kAdaptiveStepLimit times step_count steps without reaching t_end.
class StepLimitReached : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string step_limit_message(const Stepper& stepper, const State& state, const RunConfiguration& run, double last) {
  return std::string(stepper.name()) + " took " + std::to_string(state.step) + " steps (" +
         std::to_string(kAdaptiveStepLimit) + " times t_end / h) and reached only t = " + format_number(state.t) +
         " of t_end = " + format_number(run.t_end) + "; its last step was " + format_number(last) +
         ": the adaptive step shrinks faster than the run advances";
}

/// Advances `state` (the scenario's initial state, or a checkpoint's with options.resume)
/// step_count times by h, or, for an adaptive stepper, until t >= t_end with the last step's size
/// as the next first guess; stops early when an interruption is asked for. On a NewtonError
/// state is the last good one. Writes a checkpoint after the steps checkpoints asks for (none
/// after the last). Returns the signal that interrupted it, 0 when it completed.
int integrate(Stepper& stepper, const RunOptions& options, const RunConfiguration& run, RunRecorder& recorder,
              State& state, RunClock& clock, CheckpointWriter* checkpoints) {
  double h = run.h;
  if (options.resume) {
    h = options.resume->next_h;
  } else {
    stepper.initialize(state);
    recorder.record_initial(state, stepper.conserved_energy(state));
  }
  clock.start_stepping();
  const std::int64_t steps = step_count(run);
  const bool adaptive = stepper.adaptive_step_size();
  const std::int64_t limit = kAdaptiveStepLimit * std::max<std::int64_t>(steps, 1);
  std::int64_t n = recorder.statistics().steps;  // the steps completed: 0, or the checkpoint's
  const auto going_on = [&] { return adaptive ? state.t < run.t_end : n < steps; };
  while (going_on()) {
    if (const int signal = interrupt_requested(options)) return signal;
    if (adaptive && n >= limit) throw StepLimitReached(step_limit_message(stepper, state, run, h));
    const StepReport report = stepper.step(state, h);
    ++n;
    if (adaptive) h = report.step_size / report.substeps;
    recorder.record_step(state, stepper.conserved_energy(state), report);
    if (!going_on() || !checkpoint_due(options, state)) continue;
    // Every process drops its factorization with the checkpoint (Stepper::checkpoint), so that all
    // go on alike; rank 0 writes it.
    if (checkpoints) checkpoints->after_step(state, h, stepper, recorder);
    else stepper.checkpoint();
  }
  return 0;
}

/// The processes among which the drawings are shared, each drawing its part: those of a run over
/// several; nullptr for one process (an MPI job of one included).
const Distribution* drawing_processes(const RunOptions& options) {
  return options.distribution && options.distribution->ranks() > 1 ? options.distribution.get() : nullptr;
}

/// Whether this process's run over several ends apart from the others' (ends_on_every_process).
bool ends_alone(const RunOptions& options, const RunEnding& ending) {
  return drawing_processes(options) && !ends_on_every_process(ending);
}

/// The model a run steps and what it steps it with, made before its outputs are opened. The
/// description is read by the drawing of the motion alone once the model is built. A scenario's
/// is made for the run and freed when the outputs are open: a description of a large model holds
/// its bodies and joints a second time, and would lie beside the run's largest allocations (the
/// factors) for nothing. A scene's is the scene's own, which the run's options hold (not a copy).
struct RunModel {
  std::optional<ModelDescription>& generated;  ///< a scenario's description (not over parts)
  const Scene* scene;                          ///< a scene file's, or null (not over parts)
  /// Over parts, on process 0 of a run that writes checkpoints: the scene's text, until the
  /// checkpoints' copy of it is written (leave_scene_to_parts).
  std::shared_ptr<const std::string>& scene_text;
  const Model& model;                          ///< over parts, this process's part
  PreparedStepper& prepared;
  RunParts* parts;  ///< a run over parts (its part's description drawn); null when every process holds the whole model
  const ReactionColumns* reactions;  ///< with --reactions on: the model's (over parts the part's, numbered)

  /// What this process draws: its part (DrawnPart) under the partition of the system stepped,
  /// which the assembly's is (over parts, the part's bodies it owns); the whole model in one
  /// process. Before the outputs are open.
  VtkDrawing drawing(const Distribution* processes) const {
    if (parts) {
      const PartDescription& own = parts->description();
      const DrawnPart part{processes->rank(), parts->block_processes(), own.body_numbers,
                           own.entry_numbers[static_cast<std::size_t>(EntryList::joints)]};
      return VtkDrawing(own.description, model, part);
    }
    if (!scene && !generated) throw std::logic_error("the run's description was freed before it was drawn");
    DrawnPart part;
    if (processes) part = DrawnPart::of(prepared.system(model), *processes);
    return VtkDrawing(scene ? scene->model : *generated, model, part);
  }
};

/// Whether the run draws its states (a resumed run does not continue the drawings: vtk/ stays as
/// the interrupted run left it).
bool draws(const RunOptions& options) { return options.output_dir && options.write_motion && !options.resume; }

/// The time series of the run into outputs (one process, or rank 0 of several), under labels and
/// reaction_columns, the whole model's (the header's: a resumed run's series has one).
void open_series(RunOutputs& outputs, const RunModel& m, const OutputLabels& labels,
                 std::span<const std::string> reaction_columns, const RunPlan& plan, RunRecorder& recorder) {
  recorder.write_rows_to(outputs.open_timeseries(labels, m.model.probes, m.model.conserved_momenta,
                                                 find_stepper(plan.configuration.stepper).reports_condition,
                                                 reaction_columns));
}

/// The drawings into outputs when options ask (one process, or rank 0 of several).
void open_drawings(RunOutputs& outputs, const RunModel& m, const RunOptions& options, RunRecorder& recorder) {
  const Distribution* processes = drawing_processes(options);
  if (draws(options)) recorder.draw_motion_to(outputs.open_motion(m.drawing(processes), processes));
}

/// On a process of several but rank 0, which writes no other output: the series of its pieces of
/// the drawings, when the run draws (opened with rank 0's, VtkSeries).
void open_pieces(std::optional<VtkSeries>& pieces, const RunModel& m, const RunOptions& options,
                 RunRecorder& recorder) {
  const Distribution* processes = drawing_processes(options);
  if (!processes || !draws(options)) return;
  const FileCalls& calls = options.file_calls ? *options.file_calls : system_file_calls();
  recorder.draw_motion_to(pieces.emplace(*options.output_dir, calls, m.drawing(processes), *processes));
}

/// The outputs of every process: rank 0's (or the only process's) into outputs, another's pieces
/// of the drawings. Over parts the labels of the whole model are brought to rank 0 as it writes
/// the time series' header (PartLabels, every process together), the reactions' before.
void open_files(const RunModel& m, const RunOptions& options, const RunPlan& plan, RunOutputs* outputs,
                std::optional<VtkSeries>& pieces, RunRecorder& recorder) {
  std::vector<std::string> reaction_columns;
  if (m.reactions) recorder.record_reactions(*m.reactions);
  if (m.parts && options.output_dir) {
    if (m.reactions) reaction_columns = m.parts->reaction_labels(*m.reactions);
  } else if (m.reactions && outputs) {
    reaction_columns = m.reactions->labels();
  }
  if (!m.parts || !options.output_dir) {
    if (!outputs) return open_pieces(pieces, m, options, recorder);
    open_series(*outputs, m, SystemLabels(*m.model.system), reaction_columns, plan, recorder);
    return open_drawings(*outputs, m, options, recorder);
  }
  const PartLabels labels(*m.parts);
  if (!outputs) {
    labels.finish();
    return open_pieces(pieces, m, options, recorder);
  }
  try {
    open_series(*outputs, m, labels, reaction_columns, plan, recorder);
  } catch (...) {
    labels.finish();
    throw;
  }
  labels.finish();  // a resumed run's series has its header: the labels were not asked for
  open_drawings(*outputs, m, options, recorder);
}

/// Starts the recorder at the run's first state: the checkpoint's with options.resume, else the
/// model's initial state projected onto the constraints of the system stepped during setup
/// (PreparedStepper::start), whose failure is the run's from here on.
void start_recording(const RunModel& m, const RunOptions& options, RunRecorder& recorder, State& state) {
  if (options.resume) {
    recorder.resume(state, options.resume->progress, options.resume->recorder);
    return;
  }
  if (m.parts) {  // the part's initial state, not projected (PreparedStepper): the violations were not measured
    InitialProjection unmeasured;
    unmeasured.positions.largest = unmeasured.velocities.largest = not_computed;
    recorder.record_projection(unmeasured, "");
    return;
  }
  ProjectedStart& start = *m.prepared.start;
  if (start.error) std::rethrow_exception(start.error);
  state = std::move(start.state);
  recorder.record_projection(start.report, describe(m.prepared.system(m.model), start.report));
  if (m.prepared.reduced) require_dropped_equations_met(m.model, state);
}

/// Opens the outputs (outputs: rank 0's or the only process's; pieces: another process's
/// drawings), starts recording and integrates; how the run ended. Whatever stops it becomes its
/// ending: the stepper's refusal, made or thrown as std::invalid_argument by initialize or a step
/// (a state not finite, a setting a step cannot take); a Newton failure; an output error (agreed by
/// every process, or this process's alone); any other exception.
RunEnding integrate_recording_failure(const RunModel& m, const RunOptions& options, const RunPlan& plan,
                                      RunOutputs* outputs, std::optional<VtkSeries>& pieces, RunRecorder& recorder,
                                      State& state, RunClock& clock) {
  RunEnding ending;
  const auto fail = [&](FailureCause cause, const std::string& message, bool agreed = false) {
    const auto [step, t] = recorder.unfinished_step();
    ending.fail(cause, message, step, t, agreed);
  };
  try {
    std::optional<CheckpointWriter> checkpoints;
    open_files(m, options, plan, outputs, pieces, recorder);
    if (options.checkpoint_every > 0 && (outputs || m.parts))
      checkpoints.emplace(options, plan, outputs, m.parts ? &m.parts->processes() : nullptr, std::move(m.scene_text));
    m.generated.reset();
    if (m.parts) m.parts->forget_description();
    if (m.prepared.refusal) throw *m.prepared.refusal;
    start_recording(m, options, recorder, state);
    const int signal = integrate(*m.prepared.stepper, options, plan.configuration, recorder, state, clock,
                                 checkpoints ? &*checkpoints : nullptr);
    if (signal) {
      ending.interrupt(signal, recorder.statistics().steps, recorder.statistics().t_reached);
    } else {
      ending.complete();
    }
  } catch (const NewtonError& e) {  // it names the rank loss of the equations stepped (with_rank_loss)
    // Over parts no equation was dropped as dependent (PreparedStepper): redundant constraints
    // leave the Newton matrices near singular, which may surface only as a failure many steps on.
    fail(FailureCause::newton, std::string(e.what()) +
                                   (m.parts ? "; over parts (--parts on) dependent equations are not looked for: if "
                                              "the model has redundant constraints, run it with --parts off, which "
                                              "drops them"
                                            : ""));
  } catch (const ProjectionError& e) {
    fail(FailureCause::refused,
         std::string("the initial values are off the constraints and cannot be projected onto them: ") + e.what());
  } catch (const std::invalid_argument& e) {
    fail(FailureCause::refused, e.what());
  } catch (const StepLimitReached& e) {
    // Reached by every process of a run over several at the same step: the steps' sizes follow
    // Newton's decisions and the error estimates, which are the same on every process.
    fail(FailureCause::error, e.what(), true);
  } catch (const SharedOutputError& e) {
    fail(FailureCause::output, e.what(), true);
  } catch (const OutputError& e) {
    fail(FailureCause::output, e.what());
  } catch (const std::bad_alloc&) {
    fail(FailureCause::error, "out of memory (std::bad_alloc): choose a smaller model or free memory");
  } catch (const std::exception& e) {
    fail(FailureCause::error, e.what());
  }
  return ending;
}

/// final_state.json of state, the last good one, into outputs (rank 0 of several, or the only
/// process); over parts the probes' positions are gathered there first and the state's entries
/// while the file is written, a range of the whole at a time (PartStateEntries), every process
/// together: also when rank 0 cannot write it.
void write_final_state(const RunModel& m, const RunOptions& options, RunOutputs* outputs, const RunRecorder& recorder,
                       const State& state) {
  if (!m.parts) {
    const SystemLabels labels(m.prepared.system(m.model));
    if (outputs)
      outputs->write_final_state(LabelledState(labels, state), state, m.model.probes, recorder.probe_positions(state));
    return;
  }
  if (!options.output_dir) return;
  const std::vector<Vector> positions = recorder.probe_positions(state);
  const PartStateEntries entries(*m.parts, state);
  if (outputs) {
    try {
      outputs->write_final_state(entries, state, m.model.probes, positions);
    } catch (...) {
      entries.finish();
      throw;
    }
  }
  entries.finish();
}

/// After a failure or an interruption the last good state closes the time series and the drawings;
/// it is the final state in any case (final_state.json). Over several processes the pieces of the
/// drawings are then synced, every process together; a process whose run ends alone draws no more.
/// An output error fails the run.
void close_recording(const RunModel& m, const RunOptions& options, RunOutputs* outputs, RunRecorder& recorder,
                     RunEnding& ending) {
  const bool alone = ends_alone(options, ending);
  if (alone) recorder.end_alone();
  const auto fail = [&](const OutputError& e, bool agreed) {
    const auto [step, t] = recorder.unfinished_step();
    ending.fail(FailureCause::output, e.what(), step, t, agreed);
  };
  try {
    if (ending.status != RunStatus::completed && ending.failure.cause != FailureCause::output)
      recorder.record_last_good();
    if (!alone) recorder.sync_drawings();
    if (!alone && recorder.last_good()) write_final_state(m, options, outputs, recorder, *recorder.last_good());
  } catch (const SharedOutputError& e) {
    fail(e, true);
  } catch (const OutputError& e) {
    fail(e, false);
  }
  recorder.finish();
}

/// Opens the run's output directory into `outputs` (summary.json says running, of `running`);
/// leaves it empty without options.output_dir.
void open_directory(const RunOptions& options, const RunOutcome& running, std::optional<RunOutputs>& outputs) {
  // Rank 0 writes the outputs; the other processes only their pieces of the drawings (open_pieces).
  if (options.distribution && options.distribution->rank() != 0) return;
  const FileCalls& calls = options.file_calls ? *options.file_calls : system_file_calls();
  if (options.resume)
    outputs.emplace(*options.output_dir, calls, running, options.resume->timeseries_length);
  else if (options.output_dir)
    outputs.emplace(*options.output_dir, calls, running);
}

/// Closes the outputs' data files, then the run's outcome with its times, and its final summary
/// written; a file that cannot be written fails the run (cause output, at the last step completed).
RunOutcome finish(RunOutcome outcome, RunOutputs* outputs, const RunClock& clock) {
  const auto fail = [&outcome](const std::string& message) {
    outcome.ending.fail(FailureCause::output, message, outcome.statistics.steps, outcome.statistics.t_reached);
  };
  if (outputs)
    for (const std::string& message : outputs->close_files()) fail(message);
  outcome.times = clock.split();
  if (!outputs) return outcome;
  outcome.files = outputs->files();
  if (const std::optional<std::string> message = outputs->write_final_summary(outcome)) fail(*message);
  return outcome;
}

/// The run settings of options when it chooses none: the scene's, or the scenario's defaults.
RunConfiguration default_settings(const RunOptions& options) {
  return options.scene ? options.scene->scene->run : default_run_configuration(find_scenario(options.scenario));
}

}  // namespace

RunConfiguration& RunOptions::configure() {
  if (!settings) settings = default_settings(*this);
  return *settings;
}

RunPlan plan_run(const RunOptions& options) {
  require(options.threads >= 1, "threads must be at least 1, got " + std::to_string(options.threads));
  require(options.output_every >= 1,
          "output interval (every) must be at least 1 step, got " + std::to_string(options.output_every));
  require(options.checkpoint_every >= 0,
          "the checkpoint interval must be at least 1 step, got " + std::to_string(options.checkpoint_every));
  require(options.checkpoint_every == 0 || options.output_dir,
          "--checkpoint-every writes DIR/checkpoint.json: add --out DIR");
  require(!options.resume || options.output_dir, "a resumed run continues the files of its output directory: give it");
  RunPlan plan;
  plan.configuration = resolve_run_configuration(options);  // fails before the model is built
  require(!options.write_reactions || !splits_constraint_impulse(plan.configuration.stepper),
          "--reactions on: stepper " + plan.configuration.stepper +
              " keeps only the first half of each step's constraint impulse (mu / h at q_n, RATTLE), which is "
              "not the joints' reaction; use livens-em, em-ggl, ggl-vi, lobatto4 or a composition");
  plan.parts = runs_over_parts(options);
  plan.run_id = options.resume && !options.resume->run_id.empty() ? options.resume->run_id : new_run_id();
  plan.threads = capped_threads(options.threads);
  if (options.scene) {
    require(options.scenario.empty() && options.overrides.empty(), "a run takes a scenario or a scene file, not both");
    plan.scenario = options.scene->scene->name;
    plan.source = *options.scene;
    return plan;
  }
  const Scenario& scenario = find_scenario(options.scenario);
  plan.scenario = scenario.name;
  plan.parameters = resolve_parameters(scenario, options.overrides);
  plan.source = ScenarioSource{scenario.name, plan.parameters};
  return plan;
}

RunConfiguration resolve_run_configuration(const RunOptions& options) {
  if (!options.scene) resolve_parameters(find_scenario(options.scenario), options.overrides);  // the more basic error first
  const RunConfiguration c = options.settings ? *options.settings : default_settings(options);
  check_run_configuration(c);
  return c;
}

namespace {

/// With options.resume: throws CheckpointError unless the checkpoint fits the model and the
/// stepper made (check_resumable), over parts agreed by every process.
void check_resumed(const RunOptions& options, const Model& model, const PreparedStepper& prepared,
                   const RunParts* parts) {
  if (!options.resume || !prepared.stepper) return;
  const auto check = [&] {
    check_resumable(*options.resume, model, prepared.system(model), *prepared.stepper,
                    *options.output_dir / checkpoint_file_name(*options.resume));
  };
  if (parts) agreed_over_parts(parts->processes(), check);
  else check();
}

/// Over parts, the scene is dropped from the run's options and plan before this process's part is
/// built (RunParts holds the part's own description). Returns what process 0 of a run that writes
/// checkpoints copies into the output directory for them (CheckpointWriter), unless the
/// checkpoint it resumes from names a copy: the scene's text, or an unoutlined scene's JSON.
std::shared_ptr<const std::string> leave_scene_to_parts(RunOptions& options, RunPlan& plan) {
  if (!options.scene) return nullptr;
  std::shared_ptr<const Scene> scene = std::move(options.scene->scene);
  std::get<SceneSource>(plan.source).scene = nullptr;
  if (options.distribution->rank() != 0 || options.checkpoint_every == 0 || options.scene->copy) return nullptr;
  return scene->text ? scene->text : std::make_shared<const std::string>(scene_json(*scene));
}

RunOutcome run_as_given(RunOptions options) {
  RunClock clock;
  RunOutcome outcome;
  outcome.plan = plan_run(options);
  // One id for the run on every process: rank 0's (the parts' checkpoints name it).
  if (options.distribution && options.distribution->ranks() > 1)
    outcome.plan.run_id = text_of_process(*options.distribution, 0, outcome.plan.run_id);
  const RunPlan& plan = outcome.plan;
  const auto* scene_source = std::get_if<SceneSource>(&plan.source);
  const Scene* scene = scene_source && !plan.parts ? scene_source->scene.get() : nullptr;
  std::optional<ModelDescription> generated;
  std::optional<RunParts> parts;
  std::shared_ptr<const Model> built;
  std::shared_ptr<const std::string> scene_text;  // process 0's, until its copy for the checkpoints is written
  if (plan.parts) {
    PartedModel parted = parted_model(plan.source);
    scene_text = leave_scene_to_parts(options, outcome.plan);  // else an outlined scene's text is parted's alone now
    parts.emplace(options.distribution, std::move(parted));
  } else {
    if (!scene) generated = describe(plan.source);
    built = model_of(plan.source, scene ? scene->model : *generated);
  }
  const Model& model = parts ? parts->model() : *built;
  const ThreadLimit thread_limit(plan.threads);
  const BlasThreadLimit blas_thread_limit;
  PreparedStepper prepared(model, plan.configuration, options.distribution, !options.resume,
                           parts ? &*parts : nullptr);
  outcome.dropped_equations = prepared.dropped_equations;
  check_resumed(options, model, prepared, parts ? &*parts : nullptr);
  std::optional<RunOutputs> outputs;
  open_directory(options, outcome, outputs);
  std::optional<VtkSeries> pieces;  // over several processes, another process's than rank 0
  RunRecorder recorder(model, options, step_count(plan.configuration), parts ? &*parts : nullptr);
  State state = options.resume ? options.resume->state : model.initial;
  std::optional<ReactionColumns> reactions;  // read off the system stepped
  if (options.write_reactions) reactions.emplace(*model.system, prepared.system(model));
  if (reactions && parts) parts->number_reactions(*reactions);
  const RunModel m{generated, scene, scene_text, model, prepared, parts ? &*parts : nullptr,
                   reactions ? &*reactions : nullptr};
  outcome.ending =
      integrate_recording_failure(m, options, plan, outputs ? &*outputs : nullptr, pieces, recorder, state, clock);
  clock.start_closing();
  close_recording(m, options, outputs ? &*outputs : nullptr, recorder, outcome.ending);
  outcome.statistics = recorder.statistics();
  if (prepared.stepper) outcome.factorization = prepared.stepper->factorization_profile();
  outcome = finish(std::move(outcome), outputs ? &*outputs : nullptr, clock);
  if (ends_alone(options, outcome.ending) && options.lone_ending) options.lone_ending(outcome);
  return outcome;
}

}  // namespace

RunOutcome run(RunOptions options) {
  const std::optional<Checkpoint> part = resumed_part(options);
  if (part) options.resume = &*part;  // the part's state and history, checkpoint.json's on rank 0
  return run_as_given(std::move(options));
}

bool runs_over_parts(const RunOptions& options) {
  if (!options.distribution || options.distribution->ranks() < 2) return false;
  return over_parts(options.parts, !options.scene && static_cast<bool>(find_scenario(options.scenario).generate));
}

bool over_parts(PartsChoice choice, bool generated) {
  return choice == PartsChoice::on || (choice == PartsChoice::automatic && generated);
}

std::string_view to_string(PartsChoice choice) {
  switch (choice) {
    case PartsChoice::automatic: return "auto";
    case PartsChoice::on: return "on";
    case PartsChoice::off: return "off";
  }
  return "";
}

bool ends_on_every_process(const RunEnding& ending) {
  return ending.status != RunStatus::failed || ending.failure.cause == FailureCause::newton ||
         ending.failure.cause == FailureCause::refused || ending.failure.agreed;
}

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::running: return "running";
    case RunStatus::completed: return "completed";
    case RunStatus::failed: return "failed";
    case RunStatus::interrupted: return "interrupted";
  }
  return "";
}

std::string_view to_string(FailureCause cause) {
  switch (cause) {
    case FailureCause::none: return "";
    case FailureCause::newton: return "newton";
    case FailureCause::refused: return "refused";
    case FailureCause::output: return "output";
    case FailureCause::error: return "error";
  }
  return "";
}

void RunEnding::complete() { status = RunStatus::completed; }

void RunEnding::fail(FailureCause cause, const std::string& message, std::int64_t step, double t, bool agreed) {
  if (status == RunStatus::failed) {
    error += "; then " + message;
    return;
  }
  error = error.empty() ? message : error + "; then " + message;  // an interruption's message stays first
  status = RunStatus::failed;
  failure = {cause, step, t, agreed};
}

void RunEnding::interrupt(int signal, std::int64_t steps, double t_reached) {
  status = RunStatus::interrupted;
  interrupt_signal = signal;
  error = "interrupted by " + signal_name(signal) + " after step " + std::to_string(steps) + " (t = " +
          format_number(t_reached) + "); the outputs hold the run up to there";
}

}  // namespace noether
