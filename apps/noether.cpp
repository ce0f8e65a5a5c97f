/// The `noether` command-line program: `noether list`, `noether run SCENARIO|SCENE.json [options]`,
/// `noether resume DIR [--threads N]`, `noether export SCENARIO [options]`, `noether plot DIR`.
/// Exit codes (docs/cli.md): 0 completed; 1 the run failed (Newton, a refusal by the stepper, an
/// output error), or what was printed on standard output could not be written; 2 a usage error,
/// found before anything was written; 128 + the signal's number when SIGHUP (129), SIGINT (130) or
/// SIGTERM (143) interrupted the run.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/huge_pages.hpp>
#include <noether/apps/cli_arguments.hpp>
#include <noether/apps/interrupt_signals.hpp>
#include <noether/apps/processes.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/plot_command.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_export.hpp>
#include <noether/apps/summary_text.hpp>
#include <noether/engine/quote.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace {

using namespace noether;

constexpr int exit_run_failed = 1;
constexpr int exit_usage = 2;
/// The shells' convention for a process ended by a signal; here the run closed its outputs first.
constexpr int exit_signal_base = 128;

constexpr const char* exit_codes_help =
    "Exit codes (docs/cli.md):\n"
    "  0              the run completed\n"
    "  1              the run failed: Newton did not converge, the stepper refused the system, its\n"
    "                 initial state or a step, or an output file could not be written; --out DIR then\n"
    "                 holds both files, summary.json saying why; also when what noether printed on\n"
    "                 standard output could not be written (a full device, a closed pipe)\n"
    "  2              a usage error, found before anything was written\n"
    "  129, 130, 143  interrupted by SIGHUP, SIGINT or SIGTERM: the run stopped after its last\n"
    "                 completed step and closed its outputs (a second signal ends it at once)";

constexpr const char* plot_exit_codes_help =
    "Exit codes (docs/cli.md):\n"
    "  0  the figures were written into DIR/plots\n"
    "  1  gnuplot is missing or failed, or a file could not be written\n"
    "  2  a usage error: DIR does not exist or holds no time series that parses";

int report_error(const std::string& message, int exit_code) {
  std::cerr << "noether: error: " << message << '\n';
  return exit_code;
}

void print_name_list(const char* heading, const auto& entries) {
  std::size_t width = 0;
  for (const auto& e : entries) width = std::max(width, e.name.size());
  std::cout << heading << '\n';
  for (const auto& e : entries)
    std::cout << "  " << e.name << std::string(width + 2 - e.name.size(), ' ') << e.description << '\n';
}

int list_command() {
  print_name_list("scenarios:", scenarios());
  print_name_list("steppers:", steppers());
  for (const StepperInfo& s : steppers())
    for (const SchemeParameter& p : s.parameters)
      std::cout << "  " << s.name << " --set " << p.name << "=... (default " << p.default_value << "): " << p.meaning
                << '\n';
  return 0;
}

/// Prints the summary of outcome (the reporting process of several) and returns the exit code; a
/// failed or interrupted run's error goes to stderr.
int report_outcome(const RunOutcome& outcome, const Processes& processes) {
  const RunEnding& ending = outcome.ending;
  const bool interrupted = ending.status == RunStatus::interrupted;
  const int exit_code = outcome.ok() ? 0 : interrupted ? exit_signal_base + ending.interrupt_signal : exit_run_failed;
  const bool lone = !ends_on_every_process(ending);
  if (!processes.reports() && !lone) return exit_code;  // rank 0 reports it
  const std::string& note = outcome.statistics.initial_projection_note;
  if (processes.reports()) {
    if (!note.empty()) std::cerr << "noether: warning: " << note << '\n';
    print_summary(std::cout, outcome);
  }
  return outcome.ok() ? 0 : report_error(ending.error, exit_code);
}

/// Runs options on `processes` (progress on a terminal, SIGHUP, SIGINT and SIGTERM as requests to
/// stop), prints the summary (rank 0 of several); the exit code. An ending the other processes may
/// not share is reported where it happens, which then ends them all (RunOptions::lone_ending).
int run_and_report(RunOptions options, const Processes& processes) {
  options.distribution = processes.distribution();
  options.progress = processes.reports() && isatty(STDOUT_FILENO) != 0;
  options.lone_ending = [&processes](const RunOutcome& outcome) {
    const int exit_code = report_outcome(outcome, processes);
    std::cout.flush();
    processes.end_all(exit_code);
  };
  const InterruptSignals signals;
  options.interrupt = &signals.requested();
  return report_outcome(run(std::move(options)), processes);
}

/// Sets the memory share the estimates of a model's memory assume (memory_budget.hpp) before a
/// scene is read or a scenario described: the job's processes on this machine, each holding its
/// part of the model over parts (`over_parts` under several processes) or the whole.
void share_memory(bool over_parts, const Processes& processes) {
  const std::shared_ptr<const Distribution> distribution = processes.distribution();
  const int ranks = distribution ? distribution->ranks() : 1;
  set_memory_share({.here = processes.on_this_machine(), .parts = over_parts ? ranks : 1});
}

int run_command(const RunArguments& arguments, const Processes& processes) {
  const std::shared_ptr<const Distribution> distribution = processes.distribution();
  const bool several = distribution && distribution->ranks() > 1;
  // Over parts each process reads a scene file outlined, and builds its part alone.
  const bool over_parts = several && parts_asked(arguments);
  share_memory(over_parts, processes);
  RunOptions options = to_run_options(arguments, over_parts ? SceneBuild::outlined : SceneBuild::whole);
  // The processes of one job share the machines' cores: one thread each unless --threads asks for
  // more (a hybrid run, docs/distributed.md).
  if (!arguments.given("threads") && several) options.threads = 1;
  return run_and_report(std::move(options), processes);
}

/// `noether resume DIR`: the run of DIR/checkpoint.json, continued to its t_end with its options
/// (threads: --threads when given).
int resume_command(const std::string& directory, const std::optional<std::string>& threads, const Processes& processes) {
  share_memory(false, processes);  // judged whole until the checkpoint says whether it ran over parts
  // A scene over parts is read as `noether run` reads it: outlined.
  Checkpoint checkpoint = read_checkpoint(directory);
  RunOptions options = checkpoint.options;
  // The run's options hold the scene: over parts its processes drop it once their parts are built.
  if (checkpoint.options.scene) checkpoint.options.scene->scene = nullptr;
  share_memory(options.parts == PartsChoice::on, processes);  // a checkpoint holds on or off (rerun_options)
  if (threads) options.threads = parse_whole_setting(run_setting("threads"), *threads);
  options.output_dir = directory;
  options.resume = &checkpoint;
  return run_and_report(std::move(options), processes);
}

/// `noether export`: the scene of the run the arguments describe, on stdout.
int export_command(const RunArguments& arguments) {
  check_export_arguments(arguments);
  std::cout << scene_json(export_scene(to_run_options(arguments)));
  return 0;
}

/// `noether plot DIR`: the figures' paths on stdout, notes (a partial time series) on stderr.
int plot_command(const std::string& directory) {
  const PlotReport report = plot_run_directory(directory);
  for (const std::string& note : report.notes) std::cerr << "noether: note: " << note << '\n';
  for (const auto& file : report.files) std::cout << file.string() << '\n';
  return 0;
}

/// The options of `run` and of `export`: one per row of run_settings(), with its help text; export
/// takes those that are not RunSetting::exported only to refuse them by name (check_export_arguments).
void add_run_options(CLI::App& run, RunArguments& a, bool exporting) {
  run.add_option("scenario", a.scenario, "scenario name (noether list) or scene file (.json, docs/scenes.md)")->required();
  for (const RunSetting& setting : run_settings()) {
    const std::string flag(setting.flag);
    const std::string help = exporting && !setting.exported ? "refused: an option of noether run only" : option_help(setting);
    if (setting.values.kind == SettingValues::Kind::family)
      run.add_option(flag, a.assignments, help)->allow_extra_args(false);
    else
      run.add_option(flag, a.settings[setting.name], help);
  }
  // CLI11 takes the word after an option as its value even when it is another option: `--h --t 1`
  // set h to "--t" and then refused "1" without naming --h. Such a value is refused naming both.
  const CLI::Validator not_an_option(
      [](std::string& value) { return value.starts_with("--") ? "expects a value, got the option " + value : std::string(); },
      "");
  for (CLI::Option* option : run.get_options())
    if (!option->get_positional() && option->get_items_expected_max() > 0) option->check(not_an_option);
}

/// Names the problem when the first word is missing or is neither an option nor a command.
void check_command(int argc, char** argv, const CLI::App& app) {
  if (argc < 2) throw std::invalid_argument("no command given; commands: list, run, resume, export, plot (see noether --help)");
  if (argv[1][0] == '-') return;
  const std::string word = argv[1];
  for (const CLI::App* command : app.get_subcommands({}))
    if (command->get_name() == word) return;
  throw std::invalid_argument("unknown command " + quote(word) + "; commands: list, run, resume, export, plot (see noether --help)");
}

int dispatch(int argc, char** argv, const Processes& processes) {
  CLI::App app{"Noether: structure-preserving integration of constrained multibody systems", "noether"};
  app.require_subcommand(1);
  app.footer(exit_codes_help);
  CLI::App* list = app.add_subcommand("list", "print the scenarios and the steppers");
  CLI::App* run = app.add_subcommand("run", "integrate a scenario or a scene file and print its summary");
  run->footer(exit_codes_help);
  CLI::App* resume = app.add_subcommand("resume", "continue an interrupted run from its output directory's checkpoint");
  resume->footer(exit_codes_help);
  std::string resume_directory;
  std::optional<std::string> resume_threads;
  resume->add_option("directory", resume_directory, "the --out directory of a run made with --checkpoint-every")->required();
  resume->add_option("--threads", resume_threads, "worker threads (default: the run's)");
  CLI::App* export_scene = app.add_subcommand("export", "write a scenario, with its run settings, as a scene file on stdout");
  CLI::App* plot = app.add_subcommand("plot", "draw the energy error, constraint residuals, momenta and probes of a run's --out DIR");
  plot->footer(plot_exit_codes_help);
  std::string plot_directory;
  plot->add_option("directory", plot_directory, "a run's output directory (--out DIR); the figures go to DIR/plots")->required();
  RunArguments arguments;
  add_run_options(*run, arguments, false);
  add_run_options(*export_scene, arguments, true);
  check_command(argc, argv, app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report_error(std::string(e.what()) + " (see noether --help)", exit_usage);
  }
  if (list->parsed()) return list_command();
  if (plot->parsed()) return plot_command(plot_directory);
  if (resume->parsed()) return resume_command(resume_directory, resume_threads, processes);
  return export_scene->parsed() ? export_command(arguments) : run_command(arguments, processes);
}

/// exit_code, once standard output is flushed; when what was printed there could not all be
/// written (a full device, a pipe whose reader has gone), the error on stderr and exit code 1 in
/// place of 0 (a run's files in --out are as its summary.json says: only the printed copy is lost).
int flush_standard_output(int exit_code) {
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good()) return exit_code;
  const std::string reason = errno != 0 ? std::strerror(errno) : "an earlier write failed";
  return report_error("writing to standard output failed (" + reason +
                          "): what noether printed there is incomplete; give it a file or a reader with room for "
                          "all of it",
                      exit_code == 0 ? exit_run_failed : exit_code);
}

/// What a std::bad_alloc while reading or building a model means, and what to do.
std::string out_of_memory_message() {
  const AvailableMemory available = available_memory();
  return "out of memory (std::bad_alloc) while reading or building the model: it needs more than this process may "
         "allocate" + (available.limit.empty() ? std::string() : " (the limit is " + available.limit + ")") +
         "; choose a smaller model, or raise the limit";
}

}  // namespace

int main(int argc, char** argv) {
  noether::restart_with_huge_pages(argv);
  // A reader of standard output that has gone (`noether run ... | head -1`) makes the write fail
  // with EPIPE, reported as any other write error, instead of ending the program with SIGPIPE
  // after the run completed (exit 141, as if a signal had stopped the run).
  std::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (ulimit -f) passed makes the write fail with EFBIG, an output error the run
  // reports in its summary, instead of ending the program with SIGXFSZ and a core.
  std::signal(SIGXFSZ, SIG_IGN);
  int exit_code = 0;
  std::optional<Processes> processes;
  // An error outside a run's steps ends this process; under mpirun it may be this process's alone
  // (memory), so it ends the others too, which would wait for this one. A usage error is every
  // process's (they all read the same arguments): rank 0 reports it.
  const auto fail = [&](const std::string& message, int code) {
    if (processes && !processes->reports() && code == exit_usage) return code;
    report_error(message, code);
    if (processes && code != exit_usage) {
      std::cout.flush();
      processes->end_all(code);
    }
    return code;
  };
  try {
    processes.emplace();
    exit_code = dispatch(argc, argv, *processes);
  } catch (const std::invalid_argument& e) {
    exit_code = fail(e.what(), exit_usage);
  } catch (const std::bad_alloc&) {  // outside a run's steps (those end as a failed run: runner.cpp)
    exit_code = fail(out_of_memory_message(), exit_run_failed);
  } catch (const std::exception& e) {
    exit_code = fail(e.what(), exit_run_failed);
  }
  return flush_standard_output(exit_code);
}
