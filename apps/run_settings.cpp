/// The table of run settings (run_settings.hpp) and the conversions of an option's text.
#include <noether/apps/run_settings.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>

namespace noether {
namespace {

constexpr int kLargestInt = std::numeric_limits<int>::max();

/// "<flag> expects a or b, got '<text>'" unless text is one of the two choices.
void require_choice(const RunSetting& s, const std::string& text) {
  if (std::find(s.values.choices.begin(), s.values.choices.end(), text) != s.values.choices.end()) return;
  throw std::invalid_argument(std::string(s.flag) + " expects " + std::string(s.values.choices[0]) + " or " +
                              std::string(s.values.choices[1]) + ", got " + quote(text));
}

SettingValues whole(int low, int high) { return {SettingValues::Kind::whole, ParameterRange::count(low, high)}; }
SettingValues number(ParameterRange range) { return {SettingValues::Kind::number, range}; }
SettingValues choice(std::vector<std::string_view> choices) {
  return {SettingValues::Kind::choice, ParameterRange::any(), std::move(choices)};
}
SettingValues family() { return {SettingValues::Kind::family, ParameterRange::any(), {}}; }
const SettingValues kText{};

/// The default of a setting that depends on the scenario (RunSetting::default_note).
constexpr std::string_view kScenarios = "the scenario's";

using Shown = std::optional<std::string>;

/// The run settings options holds (RunOptions::settings, present: the table's functions are called
/// with them configured).
const RunConfiguration& chosen(const RunOptions& options) { return options.settings.value(); }

/// The stepper, the step, the end time and the guard on their ratio.
void add_integration_settings(std::vector<RunSetting>& table) {
  table.push_back({"stepper", "--stepper", "NAME", "/run/stepper", "stepper", "stepper", kText, true,
                   "stepper name (noether list)", "the stepper (`noether list`)", "",
                   [](const RunSetting&, const std::string& text, RunOptions& o) { o.configure().stepper = text; },
                   [](const RunOptions& o) -> Shown { return chosen(o).stepper; }});
  table.push_back({"h", "--h", "H", "/run/h", "h", "h", number(ParameterRange::positive()), true, "time step",
                   "time step, > 0; for `sem-vi` (adaptive) the size of the first step, from which its energy balance "
                   "chooses the others ([scenarios.md](scenarios.md) gives each scenario's)",
                   kScenarios,
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().h = parse_number(std::string(self.flag), text);
                   },
                   [](const RunOptions& o) -> Shown { return format_exact(chosen(o).h); }});
  table.push_back({"t_end", "--t", "T", "/run/t_end", "t_end", "t_end", number(ParameterRange::nonnegative()), true,
                   "end time, a whole number of steps",
                   "end time, >= 0, a whole number of steps H (below); an adaptive run ends at its first state at or "
                   "past T (`t_reached`)",
                   kScenarios,
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().t_end = parse_number(std::string(self.flag), text);
                   },
                   [](const RunOptions& o) -> Shown { return format_exact(chosen(o).t_end); }});
  table.push_back({"max_steps", "--max-steps", "N", "/run/max_steps", "max_steps", "", whole(1, kLargestInt), true,
                   "the most steps the run may take, a guard against a mistyped --h or --t",
                   "the most steps the run may take: a guard against a mistyped `--h` or `--t`; raise it for a run "
                   "meant to be longer",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().max_steps = parse_whole_setting(self, text);
                   },
                   [](const RunOptions& o) -> Shown { return std::to_string(chosen(o).max_steps); }});
  table.push_back({"solver", "--solver", "", "/run/solver", "solver", "solver",
                   choice({"auto", "klu", "umfpack", "eigen", "schur", "mumps"}), true,
                   "linear solver of the Newton matrices: auto (chosen by the mechanism), klu, umfpack, eigen, "
                   "schur; mumps in a build with PETSc",
                   "linear solver of the Newton matrices. `auto` chooses by the mechanism: in one process `klu`, "
                   "or `umfpack` where the first matrix's factors have wide fronts and UMFPACK's take fewer "
                   "flops; over several processes (`mpirun`) `schur` where the processes' parts share at "
                   "most 64 unknowns per cut (chains, trees), else `mumps`. `schur`: each process's part by KLU, "
                   "the unknowns they share by their Schur complement. `mumps` (through PETSc) in a build with "
                   "PETSc, where a build without says how to get it. summary.json's `factorization` names the "
                   "solver chosen and why ([distributed.md](distributed.md))",
                   "",
                   [](const RunSetting&, const std::string& text, RunOptions& o) { o.configure().solver = parse_solver(text); },
                   [](const RunOptions& o) -> Shown { return std::string(to_string(chosen(o).solver)); }});
  table.push_back({"ordering", "--ordering", "", "/run/ordering", "ordering", "ordering",
                   choice({"auto", "nd", "amd", "colamd"}), true,
                   "fill-reducing ordering of klu and umfpack: auto, nd (nested dissection), amd, colamd",
                   "fill-reducing ordering of the Newton matrices' factors, for `klu` and `umfpack` and the solvers "
                   "made of them, `auto` and `schur` (`eigen` takes `auto` only, `mumps` `auto` and, in one process, "
                   "`nd`): `nd` METIS's nested dissection of A + A^T, `amd` minimum degree of A + A^T, "
                   "`colamd` a column ordering for A^T A; `auto`: klu chooses by a trial factorization of the first "
                   "matrix, taking `nd` where it measures more than 1.5 times fewer flops (loop-heavy mechanisms "
                   "such as grid2d), umfpack by its own strategy, mumps by its analysis's estimate of flops with its "
                   "own ordering and with `nd`; summary.json's `factorization` says what was "
                   "chosen and why ([performance.md](performance.md), \"Nested-dissection orderings\")",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().ordering = parse_ordering(self, text);
                   },
                   [](const RunOptions& o) -> Shown { return std::string(to_string(chosen(o).ordering)); }});
}

/// Newton's tolerance, iteration limit, method and refresh contraction.
void add_newton_settings(std::vector<RunSetting>& table) {
  table.push_back({"newton_tolerance", "--newton-tol", "X", "/run/newton/tolerance", "newton_tolerance",
                   "newton_tolerance", number(newton_tolerance_range()), true,
                   "Newton tolerance on the scaled residual max_i |R_i| / scale_i (docs/architecture.md, Newton)",
                   "Newton's tolerance on the scaled residual max_i \\|R_i\\| / scale_i (docs/architecture.md, Newton), "
                   "in (0, 1e-3], a normal number (not below 2.2250738585072014e-308)",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().newton.residual_tolerance = parse_number(std::string(self.flag), text);
                   },
                   [](const RunOptions& o) -> Shown { return format_exact(chosen(o).newton.residual_tolerance); }});
  table.push_back({"newton_max_iterations", "--newton-max-iterations", "N", "/run/newton/max_iterations",
                   "newton_max_iterations", "newton_max_iterations", whole(1, 1000), true,
                   "Newton iterations per step at most",
                   "Newton iterations (linear solves) per step at most, 1 to 1000; a step that needs more fails the run",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().newton.max_iterations = parse_whole_setting(self, text);
                   },
                   [](const RunOptions& o) -> Shown { return std::to_string(chosen(o).newton.max_iterations); }});
  table.push_back({"newton_method", "--newton", "", "/run/newton/method", "newton_modified", "newton_method",
                   choice({"full", "modified"}), true,
                   "full or modified: keep a factorization while the scaled residual contracts",
                   "full Newton refactorizes the Newton matrix at each iteration until max\\|R\\| meets the tolerance "
                   "(the confirming iterations after that reuse it); modified Newton keeps the last factorization, "
                   "also across steps, while each iteration reduces max\\|R\\| by the refresh factor",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.configure().newton.modified = text == "modified";
                   },
                   [](const RunOptions& o) -> Shown { return std::string(newton_method_name(chosen(o).newton)); }});
  table.push_back({"newton_refresh", "--newton-refresh", "C", "/run/newton/refresh", "newton_refresh_contraction",
                   "newton_refresh_contraction", number(newton_refresh_range()), true,
                   "with --newton modified: refactorize when an iteration leaves the scaled residual above this "
                   "fraction of the previous one",
                   "with `--newton modified` only: refactorize when an iteration leaves max\\|R\\| above C times the "
                   "previous one, 0 < C < 1, a normal number (not below 2.2250738585072014e-308, as in scene files)",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     if (!o.configure().newton.modified)
                       throw std::invalid_argument(std::string(self.flag) + " " + text +
                                                   " acts on modified Newton only; add --newton modified");
                     o.configure().newton.refresh_contraction = parse_number(std::string(self.flag), text);
                   },
                   [](const RunOptions& o) -> Shown { return format_exact(chosen(o).newton.refresh_contraction); }});
}

/// What the stepper does with a failing step and with dependent equations, and its own parameters.
void add_stepper_settings(std::vector<RunSetting>& table) {
  table.push_back({"refine_depth", "--refine-depth", "N", "/run/refine_depth", "max_refinement_depth",
                   "max_refinement_depth", whole(0, 30), true,
                   "halve a step whose Newton fails, at most this many times in a row; 0: never",
                   "a step whose Newton fails is taken as two half-steps of the same scheme, each refined the same "
                   "way, at most N times in a row (smallest substep h / 2^N); 0 turns it off; 0 to 30",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.configure().max_refinement_depth = parse_whole_setting(self, text);
                   },
                   [](const RunOptions& o) -> Shown { return std::to_string(chosen(o).max_refinement_depth); }});
  table.push_back({"redundant", "--redundant", "", "/run/redundant", "redundant", "redundant",
                   choice({"drop", "refuse"}), true,
                   "constraint equations that depend on the others along the motion: drop them from the step "
                   "equations (still monitored) or refuse the run",
                   "constraint equations that depend on the others along the motion (structural redundancy, e.g. "
                   "the Bricard linkage): drop them from the step equations and monitor them, or refuse the run "
                   "naming them",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.configure().redundancy =
                         text == "drop" ? RunConfiguration::Redundancy::drop : RunConfiguration::Redundancy::refuse;
                   },
                   [](const RunOptions& o) -> Shown { return std::string(redundancy_name(chosen(o).redundancy)); }});
  table.push_back({"threads", "--threads", "N", "", "threads", "threads", whole(1, kLargestInt), false,
                   "worker threads, at most the cores available",
                   "upper bound on the worker threads; a larger N runs on the cores available (summary: `threads`). The BLAS under the sparse factorizations runs one thread, whatever N (OPENBLAS_NUM_THREADS sets another)",
                   "all cores",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) { o.threads = parse_whole_setting(self, text); },
                   [](const RunOptions& o) -> Shown { return std::to_string(o.threads); }});
  table.push_back({"parts", "--parts", "", "", "parts", "parts", choice({"auto", "on", "off"}), false,
                   "under mpirun: on makes each process build and step only its part of the model (less memory per "
                   "process), off has every process hold the whole model, auto is on for the scaling scenarios "
                   "(chain2d, chain3d, nfourbar, grid2d) and off for the others",
                   "under `mpirun`: each process builds and steps only its part of the model, so that the memory of "
                   "the model, its workspaces and its factors is divided among the processes (on), or every process "
                   "holds the whole model (off); on does not project the initial values, look for dependent "
                   "constraint equations or take models with actuators, so auto is on for the scenarios whose "
                   "generator describes each part alone (chain2d, chain3d, nfourbar, grid2d: independent "
                   "constraints, initial states on them, no actuators) and off for the other scenarios and scene "
                   "files ([distributed.md](distributed.md), \"Stage 4\"; summary: `parts`, true when the run "
                   "was over parts)",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.parts = text == "on" ? PartsChoice::on : text == "off" ? PartsChoice::off : PartsChoice::automatic;
                   },
                   [](const RunOptions& o) -> Shown { return std::string(to_string(o.parts)); }});
  table.push_back({"stepper_parameters", "--set", "key=value", "/run/stepper_parameters", "scheme_parameters",
                   "scheme_parameters", family(), true,
                   "scenario parameter, or the stepper's own (evi: S, omega), key=value (repeatable)",
                   "a scenario parameter, or a parameter of the chosen stepper (`evi`: `S`, `omega`; `noether list` "
                   "shows them); repeatable; the accepted keys are listed when a wrong one is given, and a key of "
                   "another stepper names it",
                   "the scenario's, the stepper's", nullptr, nullptr});
}

/// Where and how often the run writes its files.
void add_output_settings(std::vector<RunSetting>& table) {
  table.push_back({"output_directory", "--out", "DIR", "/output/directory", "", "", kText, false,
                   "directory for summary.json, timeseries.csv, final_state.json and the VTK files (created if missing; "
                   "summary.json says \"running\" while the run goes on, the rows grow in timeseries.csv.partial)",
                   "write `summary.json`, `timeseries.csv`, `final_state.json`, `vtk/` and `motion.pvd` into DIR "
                   "(created if missing; DIR may be a symlink to a directory, but files inside it are never written "
                   "through a symlink; one run at a time writes a DIR)",
                   "", [](const RunSetting&, const std::string& text, RunOptions& o) { o.output_dir = text; },
                   [](const RunOptions& o) -> Shown {
                     if (!o.output_dir) return std::nullopt;
                     return o.output_dir->string();
                   }});
  table.push_back({"vtk", "--vtk", "", "/output/vtk", "", "", choice({"on", "off"}), false,
                   "with --out: on draws the written steps into DIR/vtk/ and DIR/motion.pvd (ParaView), off writes no "
                   "VTK files",
                   "with `--out`: draw the written steps into `DIR/vtk/` and list them in `DIR/motion.pvd` (on), or "
                   "write no VTK files (off; the cost of the drawings is in [output.md](output.md#vtk-and-motionpvd))",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.write_motion = text == "on";
                   },
                   [](const RunOptions& o) -> Shown { return o.write_motion ? "on" : "off"; }});
  table.push_back({"reactions", "--reactions", "", "/output/reactions", "reactions", "", choice({"on", "off"}), true,
                   "on adds each joint's reaction on its second body to timeseries.csv (reaction:<joint>.fx, ..., "
                   "world frame, from the step's multipliers), off leaves them out",
                   "add each joint's force and moment on its second body to `timeseries.csv` (on: columns "
                   "`reaction:<joint>.fx` ... `.mz`, [output.md](output.md#joint-reactions); refused with `evi`, `midpoint-vi` "
                   "and `sem-vi`), or leave them out (off)",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     require_choice(self, text);
                     o.write_reactions = text == "on";
                   },
                   [](const RunOptions& o) -> Shown { return o.write_reactions ? "on" : "off"; }});
  table.push_back({"every", "--every", "N", "/output/every", "output_every", "", whole(1, kLargestInt), true,
                   "write every N-th step to timeseries.csv and DIR/vtk/",
                   "write every N-th step to `timeseries.csv` and `vtk/`", "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) { o.output_every = parse_whole_setting(self, text); },
                   [](const RunOptions& o) -> Shown { return std::to_string(o.output_every); }});
  table.push_back({"checkpoint_every", "--checkpoint-every", "N", "", "checkpoint_every", "", whole(1, kLargestInt), false,
                   "with --out DIR: write DIR/checkpoint.json after every N steps, from which `noether resume DIR` "
                   "continues the run (docs/output.md, Checkpoints)",
                   "with `--out DIR`: write `DIR/checkpoint.json` after every N steps (not after the last), from which "
                   "`noether resume DIR` continues the run (below; [output.md](output.md), \"Checkpoints\")",
                   "",
                   [](const RunSetting& self, const std::string& text, RunOptions& o) {
                     o.checkpoint_every = parse_whole_setting(self, text);
                   },
                   [](const RunOptions& o) -> Shown {
                     if (o.checkpoint_every == 0) return std::nullopt;  // 0: never
                     return std::to_string(o.checkpoint_every);
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
    std::vector<RunSetting> rows;
    add_integration_settings(rows);
    add_newton_settings(rows);
    add_stepper_settings(rows);
    add_output_settings(rows);
    return rows;
  }();
  return table;
}

const RunSetting& run_setting(std::string_view name) {
  for (const RunSetting& s : run_settings())
    if (s.name == name) return s;
  throw std::logic_error("no run setting named " + quote(name));
}

RunOptions default_run_options() {
  RunOptions options;
  options.settings.emplace();
  return options;
}

std::string default_text(const RunSetting& s) {
  if (!s.default_note.empty()) return std::string(s.default_note);
  return s.shown(default_run_options()).value_or("none");
}

std::string option_help(const RunSetting& s) { return s.help + " (default: " + default_text(s) + ")"; }

std::string cli_doc_row(const RunSetting& s) {
  std::string value(s.value_name);
  for (std::string_view c : s.values.choices) value += (value.empty() ? "" : "\\|") + std::string(c);
  const std::optional<std::string> shown = s.default_note.empty() ? s.shown(default_run_options()) : std::nullopt;
  const bool name = s.values.kind == SettingValues::Kind::choice || s.values.kind == SettingValues::Kind::text;
  const std::string default_column = shown && name ? "`" + *shown + "`" : default_text(s);
  return "| `" + std::string(s.flag) + " " + value + "` | " + s.doc + " | " + default_column + " |";
}

double parse_number(const std::string& what, const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end)
    throw std::invalid_argument(what + " expects a number (e.g. 0.01 or 1e-3), got " + quote(text));
  return value;
}

int parse_positive_count(const std::string& what, const std::string& text) {
  const std::optional<double> value = whole_number(text);
  if (!value || *value < 1) throw std::invalid_argument(what + " expects a whole number >= 1, got " + quote(text));
  return parse_count_in(what, text, 1, kLargestInt);
}

int parse_count_in(const std::string& what, const std::string& text, int low, int high) {
  const std::optional<double> value = whole_number(text);
  if (!value || *value < low || *value > high)
    throw std::invalid_argument(what + " expects a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high) + ", got " + quote(text));
  return static_cast<int>(*value);
}

int parse_whole_setting(const RunSetting& setting, const std::string& text) {
  const ParameterRange& range = setting.values.range;
  const std::string flag(setting.flag);
  if (range.low == 1 && range.high == kLargestInt) return parse_positive_count(flag, text);
  return parse_count_in(flag, text, static_cast<int>(range.low), static_cast<int>(range.high));
}

FillOrdering parse_ordering(const RunSetting& setting, const std::string& text) {
  const std::optional<FillOrdering> ordering = parse_fill_ordering(text);
  if (!ordering)
    throw std::invalid_argument(std::string(setting.flag) + " expects auto, nd, amd or colamd, got " + quote(text));
  return *ordering;
}

std::string accepted_solvers() {
  std::string list;
  for (const std::string_view name : run_setting("solver").values.choices)
    list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

LinearSolverKind parse_solver(const std::string& text) {
  if (text == to_string(LinearSolverKind::cholmod))
    throw std::invalid_argument(
        "--solver cholmod: CHOLMOD needs a symmetric positive definite matrix, and the steppers' Newton matrices "
        "are unsymmetric and indefinite (CHOLMOD serves the projection of initial values); accepted: " +
        accepted_solvers());
  const std::optional<LinearSolverKind> kind = parse_linear_solver_kind(text);
  if (!kind) throw std::invalid_argument("unknown solver " + quote(text) + "; accepted: " + accepted_solvers());
  if (!linear_solver_built(*kind)) throw std::invalid_argument("--solver " + text + ": " + linear_solver_missing_message(*kind));
  return *kind;
}

}  // namespace noether
