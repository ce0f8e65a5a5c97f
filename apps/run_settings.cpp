/// The table of run settings (run_settings.hpp) and the conversions of an option's text.
#include <noether/apps/run_settings.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {
namespace {

constexpr int kLargestInt = std::numeric_limits<int>::max();

/// "<flag> expects a or b, got '<text>'" unless text is one of the two choices.
void require_choice(const RunSetting& s, const std::string& text) {
  if (std::find(s.values.choices.begin(), s.values.choices.end(), text) != s.values.choices.end()) return;
  throw std::invalid_argument(std::string(s.flag) + " expects " + std::string(s.values.choices[0]) + " or " +
                              std::string(s.values.choices[1]) + ", got '" + text + "'");
}

SettingValues whole(int low, int high) { return {SettingValues::Kind::whole, ParameterRange::count(low, high)}; }
SettingValues number(ParameterRange range) { return {SettingValues::Kind::number, range}; }
SettingValues choice(std::vector<std::string_view> choices) {
  return {SettingValues::Kind::choice, ParameterRange::any(), std::move(choices)};
}
SettingValues family() { return {SettingValues::Kind::family, ParameterRange::any(), {}}; }
const SettingValues kText{};

/// `text` in backquotes, as docs/cli.md shows a default name.
std::string backquoted(std::string_view text) {
  std::string q = "`";
  q += text;
  q += '`';
  return q;
}

/// The stepper, the step, the end time and the guard on their ratio.
void add_integration_settings(std::vector<RunSetting>& table, const RunConfiguration& defaults) {
  table.push_back({"stepper", "--stepper", "NAME", "/run/stepper", "stepper", "stepper", kText, true,
                   "stepper name (noether list; default " + defaults.stepper + ")", "the stepper (`noether list`)",
                   backquoted(defaults.stepper), [](const RunSetting&, const std::string& text, RunOptions& o) { o.stepper = text; }});
  table.push_back({"h", "--h", "H", "/run/h", "h", "h", number(ParameterRange::positive()), true,
                   "time step (default: the scenario's)",
                   "time step, > 0; for `sem-vi` (adaptive) the size of the first step, from which its energy balance "
                   "chooses the others",
                   "the scenario's ([scenarios.md](scenarios.md))",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) { o.h = parse_number(std::string(self.flag), text); }});
  table.push_back({"t_end", "--t", "T", "/run/t_end", "t_end", "t_end", number(ParameterRange::nonnegative()), true,
                   "end time, a whole number of steps (default: the scenario's)",
                   "end time, >= 0, a whole number of steps H (below); an adaptive run ends at its first state at or "
                   "past T (`t_reached`)",
                   "the scenario's", [](const RunSetting& self, const std::string& text, RunOptions& o) { o.t_end = parse_number(std::string(self.flag), text); }});
  table.push_back({"max_steps", "--max-steps", "N", "/run/max_steps", "max_steps", "", whole(1, kLargestInt), true,
                   "the most steps the run may take, a guard against a mistyped --h or --t (default " +
                       std::to_string(defaults.max_steps) + ")",
                   "the most steps the run may take: a guard against a mistyped `--h` or `--t`; raise it for a run "
                   "meant to be longer",
                   std::to_string(defaults.max_steps), [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.max_steps = parse_whole_setting(self, text);
                   }});
  table.push_back({"solver", "--solver", "", "/run/solver", "solver", "solver", choice({"klu", "umfpack", "eigen"}), true,
                   "linear solver of the Newton matrices: klu, umfpack, eigen (default " +
                       std::string(to_string(defaults.solver)) + ")",
                   "linear solver of the Newton matrices", backquoted(to_string(defaults.solver)),
                   [](const RunSetting&, const std::string& text, RunOptions& o) { o.solver = parse_solver(text); }});
}

/// Newton's tolerance, iteration limit, method and refresh contraction.
void add_newton_settings(std::vector<RunSetting>& table, const NewtonOptions& defaults) {
  table.push_back({"newton_tolerance", "--newton-tol", "X", "/run/newton/tolerance", "newton_tolerance",
                   "newton_tolerance", number(newton_tolerance_range()), true,
                   "Newton tolerance on the scaled residual max_i |R_i| / scale_i (default " +
                       format_number(defaults.residual_tolerance) + "; docs/architecture.md, Newton)",
                   "Newton's tolerance on the scaled residual max_i \\|R_i\\| / scale_i (docs/architecture.md, Newton), "
                   "in (0, 1e-3], a normal number (not below 2.2250738585072014e-308)",
                   format_number(defaults.residual_tolerance), [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.newton_tolerance = parse_number(std::string(self.flag), text);
                   }});
  table.push_back({"newton_max_iterations", "--newton-max-iterations", "N", "/run/newton/max_iterations",
                   "newton_max_iterations", "newton_max_iterations", whole(1, 1000), true,
                   "Newton iterations per step at most (default " + std::to_string(defaults.max_iterations) + ")",
                   "Newton iterations (linear solves) per step at most, 1 to 1000; a step that needs more fails the run",
                   std::to_string(defaults.max_iterations), [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.newton_max_iterations = parse_whole_setting(self, text);
                   }});
  table.push_back({"newton_method", "--newton", "", "/run/newton/method", "newton_modified", "newton_method",
                   choice({"full", "modified"}), true,
                   "full (default) or modified: keep a factorization while the scaled residual contracts",
                   "full Newton refactorizes the Newton matrix at each iteration until max\\|R\\| meets the tolerance "
                   "(the confirming iterations after that reuse it); modified Newton keeps the last factorization, "
                   "also across steps, while each iteration reduces max\\|R\\| by the refresh factor",
                   "`full`", [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.newton_modified = text == "modified";
                   }});
  table.push_back({"newton_refresh", "--newton-refresh", "C", "/run/newton/refresh", "newton_refresh_contraction",
                   "newton_refresh_contraction", number(newton_refresh_range()), true,
                   "with --newton modified: refactorize when an iteration leaves the scaled residual above this "
                   "fraction of the previous one (default " +
                       format_number(defaults.refresh_contraction) + ")",
                   "with `--newton modified` only: refactorize when an iteration leaves max\\|R\\| above C times the "
                   "previous one, 0 < C < 1, a normal number (not below 2.2250738585072014e-308, as in scene files)",
                   format_number(defaults.refresh_contraction), [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     if (!o.newton_modified.value_or(false))
                       throw std::invalid_argument(std::string(self.flag) + " " + text +
                                                   " acts on modified Newton only; add --newton modified");
                     o.newton_refresh_contraction = parse_number(std::string(self.flag), text);
                   }});
}

/// What the stepper does with a failing step and with dependent equations, and its own parameters.
void add_stepper_settings(std::vector<RunSetting>& table, const RunConfiguration& defaults) {
  table.push_back({"refine_depth", "--refine-depth", "N", "/run/refine_depth", "max_refinement_depth",
                   "max_refinement_depth", whole(0, 30), true,
                   "halve a step whose Newton fails, at most this many times in a row; 0: never (default " +
                       std::to_string(defaults.max_refinement_depth) + ")",
                   "a step whose Newton fails is taken as two half-steps of the same scheme, each refined the same "
                   "way, at most N times in a row (smallest substep h / 2^N); 0 turns it off; 0 to 30",
                   std::to_string(defaults.max_refinement_depth), [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.max_refinement_depth = parse_whole_setting(self, text);
                   }});
  table.push_back({"redundant", "--redundant", "", "/run/redundant", "redundant", "redundant",
                   choice({"drop", "refuse"}), true,
                   "constraint equations that depend on the others along the motion: drop them from the step "
                   "equations (default; still monitored) or refuse the run",
                   "constraint equations that depend on the others along the motion (structural redundancy, e.g. "
                   "the Bricard linkage): drop them from the step equations and monitor them, or refuse the run "
                   "naming them",
                   std::string(redundancy_name(defaults.redundancy)), [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.redundancy = text == "drop" ? RunConfiguration::Redundancy::drop : RunConfiguration::Redundancy::refuse;
                   }});
  table.push_back({"threads", "--threads", "N", "", "threads", "threads", whole(1, kLargestInt), false,
                   "worker threads, at most the cores available (default: all cores)",
                   "upper bound on the worker threads; a larger N runs on the cores available (summary: `threads`)",
                   "all cores",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) { o.threads = parse_whole_setting(self, text); }});
  table.push_back({"stepper_parameters", "--set", "key=value", "/run/stepper_parameters", "scheme_parameters",
                   "scheme_parameters", family(), true,
                   "scenario parameter, or the stepper's own (evi: S, omega), key=value (repeatable)",
                   "a scenario parameter, or a parameter of the chosen stepper (`evi`: `S`, `omega`; `noether list` "
                   "shows them); repeatable; the accepted keys are listed when a wrong one is given, and a key of "
                   "another stepper names it",
                   "the scenario's, the stepper's", nullptr});
}

/// Where and how often the run writes its files.
void add_output_settings(std::vector<RunSetting>& table) {
  table.push_back({"output_directory", "--out", "DIR", "/output/directory", "", "", kText, false,
                   "directory for summary.json, timeseries.csv, final_state.json and the VTK files (created if missing; "
                   "summary.json says \"running\" while the run goes on, the rows grow in timeseries.csv.partial)",
                   "write `summary.json`, `timeseries.csv`, `final_state.json`, `vtk/` and `motion.pvd` into DIR "
                   "(created if missing; DIR may be a symlink to a directory, but files inside it are never written "
                   "through a symlink; one run at a time writes a DIR)",
                   "none", [](const RunSetting&, const std::string& text, RunOptions& o) { o.output_dir = text; }});
  table.push_back({"vtk", "--vtk", "", "/output/vtk", "", "", choice({"on", "off"}), false,
                   "with --out: on (default) draws the written steps into DIR/vtk/ and DIR/motion.pvd (ParaView), off "
                   "writes no VTK files",
                   "with `--out`: draw the written steps into `DIR/vtk/` and list them in `DIR/motion.pvd` (on), or "
                   "write no VTK files (off; the cost of the drawings is in [output.md](output.md#vtk-and-motionpvd))",
                   "on", [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.write_motion = text == "on";
                   }});
  table.push_back({"every", "--every", "N", "/output/every", "output_every", "", whole(1, kLargestInt), true,
                   "write every N-th step to timeseries.csv and DIR/vtk/ (default 1)",
                   "write every N-th step to `timeseries.csv` and `vtk/`", "1",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) { o.output_every = parse_whole_setting(self, text); }});
  table.push_back({"checkpoint_every", "--checkpoint-every", "N", "", "checkpoint_every", "", whole(1, kLargestInt), false,
                   "with --out DIR: write DIR/checkpoint.json after every N steps, from which `noether resume DIR` "
                   "continues the run (docs/output.md, Checkpoints)",
                   "with `--out DIR`: write `DIR/checkpoint.json` after every N steps (not after the last), from which "
                   "`noether resume DIR` continues the run (below; [output.md](output.md), \"Checkpoints\")",
                   "none", [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.checkpoint_every = parse_whole_setting(self, text);
                   }});
}

/// The whole number text spells, in digits or in exponent form (1e6 is 1000000); nullopt for text
/// that is no number or not a whole one (2.5, nan, inf). A number beyond the doubles is +inf.
std::optional<double> whole_number(const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || stop != end || (error != std::errc() && error != std::errc::result_out_of_range)) return {};
  if (error == std::errc::result_out_of_range) return std::numeric_limits<double>::infinity();
  if (std::isnan(value) || (std::isfinite(value) && value != std::floor(value))) return {};
  return value;
}

}  // namespace

std::span<const RunSetting> run_settings() {
  static const std::vector<RunSetting> table = [] {
    const RunConfiguration defaults;
    std::vector<RunSetting> rows;
    add_integration_settings(rows, defaults);
    add_newton_settings(rows, defaults.newton);
    add_stepper_settings(rows, defaults);
    add_output_settings(rows);
    return rows;
  }();
  return table;
}

const RunSetting& run_setting(std::string_view name) {
  for (const RunSetting& s : run_settings())
    if (s.name == name) return s;
  throw std::logic_error("no run setting named '" + std::string(name) + "'");
}

std::string cli_doc_row(const RunSetting& s) {
  std::string value(s.value_name);
  for (std::string_view c : s.values.choices) value += (value.empty() ? "" : "\\|") + std::string(c);
  return "| `" + std::string(s.flag) + " " + value + "` | " + s.doc + " | " + s.default_doc + " |";
}

double parse_number(const std::string& what, const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    throw std::invalid_argument(what + " expects a number (e.g. 0.01 or 1e-3), got '" + text + "'");
  return value;
}

int parse_positive_count(const std::string& what, const std::string& text) {
  const std::optional<double> value = whole_number(text);
  if (!value || *value < 1) throw std::invalid_argument(what + " expects a whole number >= 1, got '" + text + "'");
  return parse_count_in(what, text, 1, kLargestInt);
}

int parse_count_in(const std::string& what, const std::string& text, int low, int high) {
  const std::optional<double> value = whole_number(text);
  if (!value || *value < low || *value > high)
    throw std::invalid_argument(what + " expects a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high) + ", got '" + text + "'");
  return static_cast<int>(*value);
}

int parse_whole_setting(const RunSetting& setting, const std::string& text) {
  const ParameterRange& range = setting.values.range;
  const std::string flag(setting.flag);
  if (range.low == 1 && range.high == kLargestInt) return parse_positive_count(flag, text);
  return parse_count_in(flag, text, static_cast<int>(range.low), static_cast<int>(range.high));
}

LinearSolverKind parse_solver(const std::string& text) {
  if (text == to_string(LinearSolverKind::cholmod))
    throw std::invalid_argument(
        "--solver cholmod: CHOLMOD needs a symmetric positive definite matrix, and the steppers' Newton matrices "
        "are unsymmetric and indefinite (CHOLMOD serves the projection of initial values); accepted: klu, umfpack, "
        "eigen");
  const std::optional<LinearSolverKind> kind = parse_linear_solver_kind(text);
  if (!kind) throw std::invalid_argument("unknown solver '" + text + "'; accepted: klu, umfpack, eigen");
  return *kind;
}

}  // namespace noether
