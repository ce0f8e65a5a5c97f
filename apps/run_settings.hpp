#pragma once
/// The run settings, each declared once (run_settings()): its command-line option, its keys in
/// scene files, checkpoints and summaries, the values it accepts, its `--help` text and its line in
/// docs/cli.md. The command line (`noether run`, `noether export`), the scene reader,
/// check_run_configuration and docs/cli.md (tests/apps/test_run_settings.cpp) read a setting's range
/// from its row, so that `export` writes only what `run` accepts.
///
/// A setting has one value and one default: its field in RunConfiguration (or in NewtonOptions and
/// StepperOptions, which RunConfiguration holds), or in RunOptions for those of the run's outputs
/// and threads. The command line converts into that field (RunSetting::apply, over the scenario's or
/// the scene's settings: RunOptions::configure), and --help and docs/cli.md show the default from it
/// (RunSetting::shown); a default that depends on the scenario or the machine is named so
/// (default_note), and a test checks that it does depend on it and that the others do not.
///
/// The writers (scene_writer.cpp, checkpoint_json.cpp, summary_json.cpp, summary_text.cpp) and the
/// readers of scene files and checkpoints take each setting's key from its row, by the setting's
/// name, in an order of their own: a key renamed in its row is renamed in every file, and the scene
/// reader opens the objects along the key's path.
///
/// Adding a setting: its field and default in RunConfiguration (run_configuration.hpp; in
/// RunOptions, runner.hpp, for an output setting); one row in run_settings.cpp (apply converts the
/// option's text into the field, shown spells the field's value); one line in each reader and
/// writer of a file the row gives a key for (scene_reader.cpp, scene_writer.cpp,
/// checkpoint_json.cpp, summary_json.cpp, summary_text.cpp); its range check in
/// check_run_configuration when the row's conversion is not the only way in; its row in docs/cli.md
/// and, with a scene key, its entry in docs/scene.schema.json. The tests check the keys, ranges,
/// defaults and docs/cli.md against the row.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <noether/apps/runner.hpp>
#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// The values a setting accepts.
struct SettingValues {
  enum class Kind {
    number,  ///< a finite double in range (checked by check_run_configuration)
    whole,   ///< a whole number in range (range.whole; range.high may be the largest int)
    choice,  ///< one of choices
    text,    ///< any text (a stepper's name, checked against the registry; a directory)
    family   ///< key=value pairs, each key a parameter the stepper declares (SchemeParameter)
  };
  Kind kind = Kind::text;
  ParameterRange range = ParameterRange::any();
  std::vector<std::string_view> choices = {};
};

/// One run setting. An empty key: the setting is not in that file (threads, a property of the
/// machine, is in no scene file; the output directory in no checkpoint).
struct RunSetting {
  std::string_view name;            ///< e.g. "newton_max_iterations"
  std::string_view flag;            ///< the command-line option, e.g. "--newton-max-iterations"
  std::string_view value_name;      ///< the name of its value in docs/cli.md ("N"; empty: the choices)
  std::string_view scene_key;       ///< its JSON path in a scene file, e.g. "/run/newton/max_iterations"
  std::string_view checkpoint_key;  ///< its key in checkpoint.json's "options"
  std::string_view summary_key;     ///< its key in summary.json
  SettingValues values;
  bool exported = true;  ///< whether `noether export` takes the option (not threads, out, vtk, checkpoints:
                         ///< check_export_arguments refuses them by name, as docs/cli.md says)
  std::string help;      ///< the option's `--help` text (option_help adds its default)
  std::string doc;       ///< docs/cli.md's meaning column
  /// What the default is when it is not one value: it depends on the scenario (h, t_end: "the
  /// scenario's") or on the machine (threads: "all cores"). Empty: the default is
  /// shown(default_run_options()), the value RunConfiguration, NewtonOptions, StepperOptions and
  /// RunOptions initialize the setting to; --help and docs/cli.md show it from there.
  std::string_view default_note;
  /// Converts the option's text into options, given its own row (`self`: its flag and range, so
  /// a row never looks itself up by name); a run setting goes to options.configure(). The stepper
  /// parameters' row has none (one "key=value" of --set is applied by to_run_options, which knows
  /// the scenario). Throws std::invalid_argument naming the option, the text and what is accepted.
  void (*apply)(const RunSetting& self, const std::string& text, RunOptions& options) = nullptr;
  /// The setting's value in options (whose settings are present) as its option spells it, so that
  /// apply reads it back as the same value; nullopt when it is off (no --out, no checkpoints). The
  /// stepper parameters' row has none.
  std::optional<std::string> (*shown)(const RunOptions& options) = nullptr;
};

/// Every run setting, in the order of `noether run --help`.
std::span<const RunSetting> run_settings();

/// The setting named `name` (RunSetting::name); std::logic_error for a name not in the table.
const RunSetting& run_setting(std::string_view name);

/// The options of a run that chooses nothing, with its settings present: RunConfiguration's
/// defaults (h and t_end, the scenario's, are 0 there).
RunOptions default_run_options();

/// The setting's default as --help shows it: its default_note, its shown value in
/// default_run_options(), or "none" when it is off there.
std::string default_text(const RunSetting& setting);

/// The option's `--help` text: help and "(default: default_text)".
std::string option_help(const RunSetting& setting);

/// docs/cli.md's row of a setting: "| `FLAG VALUE` | doc | default |", VALUE its value_name or
/// choices, the default default_text (a name or a choice in backquotes).
std::string cli_doc_row(const RunSetting& setting);

/// The whole of text as a double; throws std::invalid_argument naming `what` otherwise.
double parse_number(const std::string& what, const std::string& text);
/// The whole of text as an integer >= 1, in digits or exponent form (1e6); throws
/// std::invalid_argument naming `what` otherwise (and the largest int when it is beyond).
int parse_positive_count(const std::string& what, const std::string& text);
/// The whole of text as an integer in [low, high], in digits or exponent form; throws
/// std::invalid_argument naming `what` otherwise.
int parse_count_in(const std::string& what, const std::string& text, int low, int high);
/// The whole of text as a whole number in the setting's range (parse_positive_count's message
/// when the range is [1, largest int], parse_count_in's otherwise).
int parse_whole_setting(const RunSetting& setting, const std::string& text);
/// The solver setting's choices as a list, "klu, umfpack, ...", for the messages that refuse one.
std::string accepted_solvers();
/// One of the solvers the steppers accept (the solver setting's choices). cholmod is refused with
/// why, and a back-end this build lacks (mumps without PETSc) with how to get it.
LinearSolverKind parse_solver(const std::string& text);

}  // namespace noether
