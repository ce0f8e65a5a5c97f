#pragma once
/// Checkpoints: `noether run ... --checkpoint-every N` writes DIR/checkpoint.json every N steps,
/// `noether resume DIR` continues the run from it to its t_end, and the continued run's
/// timeseries.csv is byte-identical to the uninterrupted run's (docs/output.md, "Checkpoints").
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <noether/apps/output_agreement.hpp>
#include <noether/apps/run_outputs.hpp>
#include <noether/apps/run_recorder.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/steppers/stepper_history.hpp>

namespace noether {

/// A checkpoint file that cannot be used: the message names the file and what is wrong with it
/// (a JSON path for a field), or the output directory's file that does not match it.
class CheckpointError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Everything a run needs to continue after step `state.step` as if it had never stopped.
struct Checkpoint {
  static constexpr const char* kFileName = "checkpoint.json";
  /// Version 2 added the progress' newton_evaluations_total and
  /// newton_matrix_evaluations_total; version 1 is read too, its run resumed without those counts.
  /// Version 3 added newton_stalled_steps and newton_stalled_residual_max; versions 1
  /// and 2 are read with none, as the noether that wrote them failed a step where a solve stalled.
  /// Version 4 added run_id; versions 1 to 3 are read with none.
  /// Version 5 added the progress' work_total and energy_balance_max_abs and the recorder's
  /// balance_last; versions 1 to 4 are read with them not known (NaN).
  /// Version 6 added "parts" (a run over parts: processes, process); versions 1 to 5 are the
  /// whole model's.
  /// Version 7 names the scene of a run over parts by its copy in the output directory
  /// (source.scene_copy: SceneCopy) instead of holding it; version 6 held it (source.scene), and
  /// is read as before.
  static constexpr int kFormatVersion = 7;

  /// The run it belongs to (RunPlan::run_id), as summary.json names it; empty for versions 1 to 3.
  std::string run_id;

  /// The run's options with every run setting given (rerun_options): the model's source (the
  /// scenario with all its parameters, or the scene), the resolved configuration, threads,
  /// output_every, checkpoint_every. output_dir, interrupt, file_calls and progress are not saved.
  RunOptions options;
  /// The state after the step, complete (q, v, p, lambda, t, step, discrete_energy).
  State state;
  /// The h the next step is given: the run's h, or an adaptive stepper's last step size.
  double next_h = 0.0;
  /// What the stepper keeps between steps (Stepper::history).
  StepperHistory stepper_history;
  /// The run's statistics up to the state (RunRecorder::resume continues from them).
  RunStatistics progress;
  /// The wall-clock time of the run up to the state, the earlier runs' included (a resumed run).
  double wall_seconds = 0.0;
  RunRecorder::Continuation recorder;
  /// The bytes of the time series up to and including the state's row, synced before the file
  /// was written; a resumed run cuts the time series back to them and appends.
  std::uint64_t timeseries_length = 0;
  /// A run over parts (RunOptions::parts): its number of processes, and the process whose part's
  /// state and stepper history this file holds (process 0's is checkpoint.json, the others'
  /// part_checkpoint_name's). 0 and 0: the whole model's.
  int processes = 0;
  int process = 0;
};

/// The file of process `process` > 0's part of a checkpoint over parts: "checkpoint.part<p>.json",
/// or while a checkpoint is written (`next`) "checkpoint.part<p>.next.json", renamed to the first
/// once checkpoint.json names its step (CheckpointWriter).
std::string part_checkpoint_name(int process, bool next = false);

/// Process `process` > 0's part of the checkpoint `whole` (checkpoint.json of a run over parts) in
/// directory: the part file of whole's run and step (checkpoint.part<p>.json, or the .next one a
/// run stopped while writing left), with whole's options, its state checked against them as
/// parse_checkpoint checks a whole checkpoint's. Throws CheckpointError naming the files when
/// neither is, or naming the file whose state its run would not have saved.
Checkpoint read_part_checkpoint(const std::filesystem::path& directory, const Checkpoint& whole, int process);

/// The options that run the same run again: options' threads, output_every, checkpoint_every,
/// write_reactions and parts, the model's source and every setting of plan.configuration.
RunOptions rerun_options(const RunPlan& plan, const RunOptions& options);

/// The checkpoint as JSON. Every double is written so that it reads back bitwise: a finite one
/// as a JSON number of the shortest decimal that rounds back to it (nlohmann::json's output),
/// NaN and infinities as the strings "nan", "inf", "-inf".
std::string checkpoint_json(const Checkpoint& checkpoint);

/// The checkpoint of checkpoint_json's text; CheckpointError "<origin>: <JSON path>: <what is
/// wrong>" for anything missing, malformed, repeated (a key twice in one object) or of another
/// format, and for a state its run would not have saved (CheckpointWriter writes one after a step
/// that leaves the run going on, at a multiple of checkpoint_every): a step at or past the run's
/// last one (for an adaptive stepper a t at or past t_end); a fixed-step state whose t is not step
/// x h to within the rounding of the additions that reach it; progress that is not the state's
/// (steps, t_reached); a last row that is not the one output_every wrote last. Another process's
/// part of a checkpoint over parts (parts.process > 0) holds no options: read_part_checkpoint gives
/// it its run's and checks its state against them. A scene held in the file is read outlined for
/// a run over parts (as `noether run` reads a scene over parts), whole and built for any other; a
/// scene named by its copy (version 7 over parts) is left unread (SceneSource::scene null, copy
/// set): read_checkpoint reads it from the output directory.
Checkpoint parse_checkpoint(std::string_view text, const std::string& origin);

/// Throws JsonInputError at the JSON path of what shows that c's state is not one its run saved
/// (parse_checkpoint's last check; the conditions are parse_checkpoint's).
void check_saved_state(const Checkpoint& c);

/// directory/checkpoint.json, after checking that it continues the run whose outputs the
/// directory holds (docs/output.md, "Checkpoints"): the file is a regular file; summary.json does
/// not say completed ("nothing to resume: the run completed"), names the checkpoint's run_id
/// ("belongs to another run" otherwise) and gives every key of summary_plan_keys() the value the
/// checkpoint's options give it (a missing summary.json, which a run whose final summary could
/// not be written leaves, is not compared); the time series (timeseries.csv.partial, else
/// timeseries.csv) holds at least timeseries_length bytes, whose rows end there, are as many as
/// the rows of steps 0, output_every, ... up to the checkpoint's last row, and of which the last
/// is at that row's t; the scene named by its copy (SceneCopy) is directory/scene.json, of the
/// length and digest the checkpoint gives, and is read outlined. Throws CheckpointError naming the
/// file and what is wrong.
Checkpoint read_checkpoint(const std::filesystem::path& directory);

/// The name of a checkpoint's file in its directory: checkpoint.json, or a part's
/// (part_checkpoint_name).
std::string checkpoint_file_name(const Checkpoint& checkpoint);

/// A resumed run over parts (runs_over_parts) on a process but rank 0: the checkpoint of its part
/// (read_part_checkpoint), agreed by every process (agreed_over_parts); nothing otherwise. Refuses
/// a checkpoint over parts resumed on another number of processes, and one of the whole model over
/// parts.
std::optional<Checkpoint> resumed_part(const RunOptions& options);

/// Throws CheckpointError, naming `file` (the checkpoint's), unless the checkpoint fits the
/// model rebuilt from its options: its state is complete and finite for `stepped` (the system the
/// stepper steps; over parts the process's part), its stepper history restores into `stepper`
/// (which it then holds), and it carries one initial value per invariant and one entry per
/// conserved momentum of the model.
void check_resumable(const Checkpoint& checkpoint, const Model& model, const System& stepped, Stepper& stepper,
                     const std::filesystem::path& file);

/// Writes DIR/checkpoint.json after every options.checkpoint_every steps of a run (docs/output.md,
/// "Checkpoints"): the time series is synced first (RunOutputs::sync_timeseries) and its length
/// recorded, then the file replaced atomically, so that a crash at any moment leaves the previous
/// checkpoint or this one, each with the rows it counts on the disk. Over parts every process
/// writes its part's: the others first (part_checkpoint_name's next file), then process 0
/// checkpoint.json, then the others rename theirs, each stage agreed by every process
/// (write_agreed), so that checkpoint.json always names a step whose part files are on the disk.
///
/// A run over parts of a scene names it in checkpoint.json by its copy, DIR/scene.json, which the
/// writer writes once, when it is made (agreed by every process), unless the run resumed from a
/// checkpoint that names one already.
class CheckpointWriter {
 public:
  /// outputs (rank 0's, or the only process's) must outlive the writer; nullptr on the other
  /// processes of a run over parts. parts: the processes of a run over parts, else nullptr.
  /// scene_text: on rank 0 of a run over parts of a scene whose options name no copy yet, the
  /// scene's text (Scene::text), which the copy is written from and not kept; else null. Throws
  /// OutputError (over parts SharedOutputError, on every process) when the copy cannot be written.
  CheckpointWriter(const RunOptions& options, const RunPlan& plan, RunOutputs* outputs, const Distribution* parts,
                   std::shared_ptr<const std::string> scene_text = nullptr);
  /// After the step that reached `state`, when the run goes on and the step's number is a
  /// multiple of the interval: writes the checkpoint, with the statistics recorder gathered up to
  /// it. next_h: the h the next step gets. Drops the stepper's factorization
  /// (Stepper::checkpoint). Throws OutputError when a file cannot be written (over parts
  /// SharedOutputError, on every process).
  void after_step(const State& state, double next_h, Stepper& stepper, const RunRecorder& recorder);

 private:
  /// A process's part over parts but process 0's: written as the next file, renamed once agreed.
  void write_part(const Checkpoint& checkpoint);
  /// Over parts: DIR/scene.json from `text` (process 0's; null on the others), agreed, and its
  /// SceneCopy in the options that checkpoint.json holds.
  void write_scene_copy(const std::shared_ptr<const std::string>& text);

  RunOptions options_;
  std::string run_id_;
  RunOutputs* outputs_;
  const Distribution* parts_;
  std::optional<OutputDirectory> directory_;  ///< over parts, a process's but rank 0's: DIR, unlocked
  double seconds_before_ = 0.0;  ///< the wall time of the earlier runs (a resumed run)
  std::chrono::steady_clock::time_point start_;
};

}  // namespace noether
