#pragma once
/// The run settings, each declared once (run_settings()): its command-line option, its keys in
/// scene files, checkpoints and summaries, its default, the values it accepts, its `--help` text
/// and its line in docs/cli.md. The command line (`noether run`, `noether export`), the scene
/// reader, check_run_configuration and docs/cli.md (tests/apps/test_run_settings.cpp) read a
/// setting's range from its row, so that `export` writes only what `run` accepts.
///
/// The writers (scene_writer.cpp, checkpoint_json.cpp, summary_json.cpp, summary_text.cpp) and the
/// readers of scene files and checkpoints take each setting's key from its row, by the setting's
/// name, in an order of their own: a key renamed in its row is renamed in every file.
///
/// Adding a setting: a field in RunOptions (runner.hpp) and RunConfiguration (run_configuration.hpp),
/// one row in run_settings.cpp (its apply function converts the option's text), and one line in
/// each reader and writer of a file the row gives a key for; the tests check each key the row
/// names against those files and docs/cli.md.
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
  std::string help;      ///< the option's `--help` text
  std::string doc;       ///< docs/cli.md's meaning column
  std::string default_doc;  ///< docs/cli.md's default column
  /// Converts the option's text into options, given its own row (`self`: its flag and range, so
  /// a row never looks itself up by name); the stepper parameters' row has none (one "key=value"
  /// of --set is applied by to_run_options, which knows the scenario). Throws
  /// std::invalid_argument naming the option, the text and what is accepted.
  void (*apply)(const RunSetting& self, const std::string& text, RunOptions& options) = nullptr;
};

/// Every run setting, in the order of `noether run --help`.
std::span<const RunSetting> run_settings();

/// The setting named `name` (RunSetting::name); std::logic_error for a name not in the table.
const RunSetting& run_setting(std::string_view name);

/// docs/cli.md's row of a setting: "| `FLAG VALUE` | doc | default |", VALUE its value_name or choices.
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
/// One of the solvers the steppers accept: klu, umfpack, eigen. cholmod is refused with why.
LinearSolverKind parse_solver(const std::string& text);

}  // namespace noether
