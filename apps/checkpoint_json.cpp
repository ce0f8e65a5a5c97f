/// The checkpoint file's format (docs/output.md, "Checkpoints"): checkpoint_json, parse_checkpoint.
#include <noether/apps/checkpoint.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <noether/apps/json_reader.hpp>
#include <noether/apps/run_settings.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/apps/summary_json.hpp>

namespace noether {
namespace {


using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "noether-checkpoint";

/// A double that reads back bitwise: finite ones as numbers, the others as "nan", "inf", "-inf".
Json exact(double value) {
  if (std::isfinite(value)) return value;
  return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
}

/// The large arrays (the state, the stepper history) are written straight into the text, not
/// through a JSON tree, which would cost several times as much on a large model. A finite double
/// as std::to_chars' shortest form that reads back to it ("-0.0" for -0, which JSON readers take
/// for the integer 0 when written "-0"); the others as exact() writes them.
void append_exact(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += exact(value).dump();
    return;
  }
  if (value == 0.0 && std::signbit(value)) {
    out += "-0.0";
    return;
  }
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), end);
}

void append_exact(std::string& out, std::span<const double> values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    append_exact(out, values[i]);
  }
  out += ']';
}

void append_exact(std::string& out, const Vector& values) {
  append_exact(out, std::span<const double>(values.data(), static_cast<std::size_t>(values.size())));
}

/// Appends "key": to out, after a comma unless it opens the object ('{' last).
void append_key(std::string& out, std::string_view key) {
  if (out.back() != '{') out += ',';
  out += Json(key).dump();
  out += ':';
}

Json exact(const Vector& values) {
  Json list = Json::array();
  for (Index i = 0; i < values.size(); ++i) list.push_back(exact(values(i)));
  return list;
}


/// The fields of one JSON object read with the path of each in the errors.
class Fields {
 public:
  Fields(const nlohmann::json& value, std::string path) : value_(value), path_(std::move(path)) {
    if (!value_.is_object()) throw JsonInputError(path_, "expects an object");
  }
  const nlohmann::json& at(std::string_view key) const {
    const auto entry = value_.find(std::string(key));
    if (entry == value_.end()) throw JsonInputError(path(key), "is missing");
    return *entry;
  }
  std::string path(std::string_view key) const { return path_ + "/" + std::string(key); }
  bool has(std::string_view key) const { return value_.contains(std::string(key)); }
  Fields object(std::string_view key) const { return Fields(at(key), path(key)); }

  double number(std::string_view key) const { return read_number(at(key), path(key)); }
  Vector vector(std::string_view key) const {
    const nlohmann::json& list = at(key);
    if (!list.is_array()) throw JsonInputError(path(key), "expects an array of numbers");
    Vector values(static_cast<Index>(list.size()));
    for (std::size_t i = 0; i < list.size(); ++i)
      values(static_cast<Index>(i)) = read_number(list[i], path(key) + "/" + std::to_string(i));
    return values;
  }
  Vector vector(std::string_view key, Index size) const {
    Vector values = vector(key);
    if (values.size() != size)
      throw JsonInputError(path(key), "holds " + std::to_string(values.size()) + " numbers, expected " +
                                          std::to_string(size));
    return values;
  }
  std::int64_t whole(std::string_view key, std::int64_t low = std::numeric_limits<std::int64_t>::min()) const {
    const nlohmann::json& value = at(key);
    if (!value.is_number_integer() || value.get<std::int64_t>() < low)
      throw JsonInputError(path(key), low == std::numeric_limits<std::int64_t>::min()
                                          ? std::string("expects a whole number")
                                          : "expects a whole number >= " + std::to_string(low));
    return value.get<std::int64_t>();
  }
  std::string text(std::string_view key) const {
    const nlohmann::json& value = at(key);
    if (!value.is_string()) throw JsonInputError(path(key), "expects a string");
    return value.get<std::string>();
  }
  bool boolean(std::string_view key) const {
    const nlohmann::json& value = at(key);
    if (!value.is_boolean()) throw JsonInputError(path(key), "expects true or false");
    return value.get<bool>();
  }
  const nlohmann::json& value() const { return value_; }

 private:
  static double read_number(const nlohmann::json& value, const std::string& path) {
    if (value.is_number()) return value.get<double>();
    if (value == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (value == "inf") return std::numeric_limits<double>::infinity();
    if (value == "-inf") return -std::numeric_limits<double>::infinity();
    throw JsonInputError(path, "expects a number, \"nan\", \"inf\" or \"-inf\"");
  }

  const nlohmann::json& value_;
  std::string path_;
};

/// The checkpoint key of the run setting `name` (RunSetting::checkpoint_key).
std::string option_key(std::string_view name) { return std::string(run_setting(name).checkpoint_key); }

Json options_json(const RunOptions& options) {
  Json source;
  if (options.scene && options.scene->copy) {  // over parts: the copy in the output directory
    source = {{"scene_file", options.scene->path.string()},
              {"scene_copy", {{"bytes", options.scene->copy->bytes}, {"digest", options.scene->copy->digest}}}};
  } else if (options.scene) {
    if (!options.scene->scene || options.scene->scene->parted)
      throw std::logic_error("a checkpoint of a run over a scene's parts names the scene's copy (SceneSource::copy), "
                             "which CheckpointWriter writes");
    source = {{"scene_file", options.scene->path.string()}, {"scene", scene_json(*options.scene->scene)}};
  } else {
    Json parameters = Json::object();
    for (const auto& [key, value] : options.overrides) parameters[key] = exact(value);
    source = {{"scenario", options.scenario}, {"parameters", parameters}};
  }
  const RunConfiguration& c = options.settings.value();
  Json scheme = Json::object();
  for (const auto& [key, value] : c.scheme_parameters) scheme[key] = exact(value);
  Json j = {{"source", source}};
  j[option_key("stepper")] = c.stepper;
  j[option_key("solver")] = to_string(c.solver);
  j[option_key("ordering")] = to_string(c.ordering);
  j[option_key("h")] = exact(c.h);
  j[option_key("t_end")] = exact(c.t_end);
  j[option_key("max_steps")] = c.max_steps;
  j[option_key("newton_tolerance")] = exact(c.newton.residual_tolerance);
  j[option_key("newton_max_iterations")] = c.newton.max_iterations;
  j[option_key("newton_method")] = c.newton.modified;
  j[option_key("newton_refresh")] = exact(c.newton.refresh_contraction);
  j[option_key("refine_depth")] = c.max_refinement_depth;
  j[option_key("redundant")] = redundancy_name(c.redundancy);
  j[option_key("stepper_parameters")] = scheme;
  j[option_key("threads")] = options.threads;
  j[option_key("every")] = options.output_every;
  j[option_key("reactions")] = options.write_reactions;
  j[option_key("checkpoint_every")] = options.checkpoint_every;
  j[option_key("parts")] = options.parts == PartsChoice::on;  // rerun_options resolved auto
  return j;
}

ParameterValues read_values(const Fields& fields, std::string_view key) {
  const Fields values = fields.object(key);
  ParameterValues result;
  for (const auto& [name, value] : values.value().items()) result[name] = values.number(name);
  return result;
}

/// A scene's copy named by source.scene_copy (CheckpointWriter).
SceneCopy read_scene_copy(const Fields& source) {
  const Fields copy = source.object("scene_copy");
  SceneCopy c{static_cast<std::uint64_t>(copy.whole("bytes", 0)), copy.text("digest")};
  if (c.digest.size() != 16 || c.digest.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw JsonInputError(copy.path("digest"), "is not 16 lowercase hexadecimal digits");
  return c;
}

RunOptions read_options(const Fields& f, const std::string& origin) {
  RunOptions options;
  // A checkpoint written before runs over parts held the whole model.
  options.parts = f.value().contains(option_key("parts")) && f.boolean(option_key("parts")) ? PartsChoice::on
                                                                                            : PartsChoice::off;
  const Fields source = f.object("source");
  if (source.value().contains("scene_copy")) {  // read from the output directory by read_checkpoint
    options.scene = SceneSource{source.text("scene_file"), nullptr, read_scene_copy(source)};
  } else if (source.value().contains("scene")) {
    const std::string path = source.text("scene_file");
    // A run over parts builds each process's part, not the whole, as `noether run` reads it.
    const SceneBuild build = options.parts == PartsChoice::on ? SceneBuild::outlined : SceneBuild::whole;
    options.scene = SceneSource{
        path, std::make_shared<const Scene>(parse_scene(source.text("scene"), origin + ", " + source.path("scene"), build))};
  } else {
    options.scenario = source.text("scenario");
    options.overrides = read_values(source, "parameters");
  }
  RunConfiguration& c = options.settings.emplace();
  c.stepper = f.text(option_key("stepper"));
  const std::optional<LinearSolverKind> solver = parse_linear_solver_kind(f.text(option_key("solver")));
  if (!solver) throw JsonInputError(f.path(option_key("solver")), "is not a solver: " + accepted_solvers());
  c.solver = *solver;
  // A checkpoint written before the ordering could be chosen ran with the automatic one.
  if (f.value().contains(option_key("ordering"))) {
    const std::optional<FillOrdering> ordering = parse_fill_ordering(f.text(option_key("ordering")));
    if (!ordering) throw JsonInputError(f.path(option_key("ordering")), "is not an ordering: auto, nd, amd or colamd");
    c.ordering = *ordering;
  }
  c.h = f.number(option_key("h"));
  c.t_end = f.number(option_key("t_end"));
  c.max_steps = static_cast<int>(f.whole(option_key("max_steps"), 1));
  c.newton.residual_tolerance = f.number(option_key("newton_tolerance"));
  c.newton.max_iterations = static_cast<int>(f.whole(option_key("newton_max_iterations"), 1));
  c.newton.modified = f.boolean(option_key("newton_method"));
  c.newton.refresh_contraction = f.number(option_key("newton_refresh"));
  c.max_refinement_depth = static_cast<int>(f.whole(option_key("refine_depth"), 0));
  const std::string redundant = f.text(option_key("redundant"));
  if (redundant != "drop" && redundant != "refuse")
    throw JsonInputError(f.path(option_key("redundant")), "expects drop or refuse");
  c.redundancy = redundant == "drop" ? RunConfiguration::Redundancy::drop : RunConfiguration::Redundancy::refuse;
  for (const auto& [name, value] : read_values(f, option_key("stepper_parameters"))) c.scheme_parameters[name] = value;
  options.threads = static_cast<int>(f.whole(option_key("threads"), 1));
  options.output_every = static_cast<int>(f.whole(option_key("every"), 1));
  // A checkpoint of a run without the setting wrote no reaction columns.
  options.write_reactions = f.value().contains(option_key("reactions")) && f.boolean(option_key("reactions"));
  options.checkpoint_every = static_cast<int>(f.whole(option_key("checkpoint_every"), 1));
  return options;
}

void append_state(std::string& out, const State& state) {
  out += '{';
  append_key(out, "step");
  out += std::to_string(state.step);
  append_key(out, "t");
  append_exact(out, state.t);
  const std::pair<const char*, const Vector*> vectors[] = {
      {"q", &state.q}, {"v", &state.v}, {"p", &state.p}, {"lambda", &state.lambda}};
  for (const auto& [key, values] : vectors) {
    append_key(out, key);
    append_exact(out, *values);
  }
  append_key(out, "discrete_energy");
  append_exact(out, state.discrete_energy);
  out += '}';
}

State read_state(const Fields& f) {
  State state;
  state.step = static_cast<Index>(f.whole("step", 1));  // written after a step, never at step 0
  state.t = f.number("t");
  state.q = f.vector("q");
  state.v = f.vector("v");  // the sizes are the model's to check (check_resumable)
  state.p = f.vector("p");
  state.lambda = f.vector("lambda");
  state.discrete_energy = f.number("discrete_energy");
  return state;
}

Json violation_json(const ConstraintViolation& v) {
  return {{"row", v.row}, {"residual", exact(v.residual)}, {"tolerance", exact(v.tolerance)}, {"largest", exact(v.largest)}};
}

ConstraintViolation read_violation(const Fields& f) {
  return {static_cast<Index>(f.whole("row", -1)), f.number("residual"), f.number("tolerance"), f.number("largest")};
}

/// The statistics and the wall-clock time up to the checkpoint.
Json progress_json(const RunStatistics& r, double wall_seconds) {
  Json refinements = Json::array();
  for (const RunStatistics::RefinedStep& s : r.refinements)
    refinements.push_back({{"step", s.step}, {"t", exact(s.t)}, {"substeps", s.substeps},
                           {"smallest_substep", exact(s.smallest_substep)}});
  Json drifts = Json::array();
  for (const auto& [name, drift] : r.invariant_drifts) drifts.push_back({{"name", name}, {"drift", exact(drift)}});
  Json maxima = Json::array();
  for (const auto& [name, largest] : r.probe_maxima) maxima.push_back({{"name", name}, {"largest", exact(largest)}});
  Json momenta = Json::array();
  for (const RunStatistics::ConservedMomentum& c : r.conserved_momenta)
    momenta.push_back({{"name", c.name}, {"initial", exact(c.initial)}, {"final", exact(c.final)}, {"drift", exact(c.drift)}});
  const InitialProjection& p = r.initial_projection;
  Json progress{{"steps", r.steps},
          {"t_reached", exact(r.t_reached)},
          {"step_size_min", exact(r.step_size_min)},
          {"step_size_max", exact(r.step_size_max)},
          {"condition_estimate_max", exact(r.condition_estimate_max)},
          {"newton_iterations_total", r.newton_iterations_total},
          {"newton_iterations_max", r.newton_iterations_max},
          {"newton_factorizations_total", r.newton_factorizations_total},
          {"newton_stalled_steps", r.newton_stalled_steps},
          {"newton_stalled_residual_max", exact(r.newton_stalled_residual_max)},
          {"newton_evaluations_total",
           count_or_null(r.newton_evaluations, &RunStatistics::NewtonEvaluations::residuals)},
          {"newton_matrix_evaluations_total",
           count_or_null(r.newton_evaluations, &RunStatistics::NewtonEvaluations::with_matrix)},
          {"wall_seconds", exact(wall_seconds)},
          {"phase_seconds", {exact(r.phase_seconds.assembly), exact(r.phase_seconds.factorization), exact(r.phase_seconds.solve)}},
          {"refined_steps", r.refined_steps},
          {"refinements", refinements},
          {"smallest_substep", exact(r.smallest_substep)},
          {"initial_projection", {{"positions", violation_json(p.positions)},
                                  {"velocities", violation_json(p.velocities)},
                                  {"position_correction", exact(p.position_correction)},
                                  {"velocity_correction", exact(p.velocity_correction)},
                                  {"position_coordinate", p.position_coordinate},
                                  {"velocity_coordinate", p.velocity_coordinate},
                                  {"note", r.initial_projection_note}}},
          {"energy_initial", exact(r.energy_initial)},
          {"energy_final", exact(r.energy_final)},
          {"energy_max_abs_increment", exact(r.energy_max_abs_increment)},
          {"work_total", exact(r.work_total)},
          {"energy_balance_max_abs", exact(r.energy_balance_max_abs)},
          {"constraint_max_abs", exact(r.constraint_max_abs)},
          {"velocity_constraint_max_abs", exact(r.velocity_constraint_max_abs)},
          {"invariant_drifts", drifts},
          {"conserved_momenta", momenta}};
  if (!maxima.empty()) progress["probe_maxima"] = std::move(maxima);  // a model with summarized probes
  return progress;
}

/// The evaluation counts saved by count_or_null: none in version 1, which did not save them, nor
/// where a run resumed from one saved null; else two whole numbers >= 0.
std::optional<RunStatistics::NewtonEvaluations> read_evaluations(const Fields& f, std::int64_t version) {
  if (version < 2 || f.at("newton_evaluations_total").is_null()) return std::nullopt;
  return RunStatistics::NewtonEvaluations{f.whole("newton_evaluations_total", 0),
                                      f.whole("newton_matrix_evaluations_total", 0)};
}

/// version: the checkpoint's format version (1 saved no evaluation counts).
RunStatistics read_progress(const Fields& f, std::int64_t version) {
  RunStatistics r;
  r.steps = f.whole("steps", 0);
  r.t_reached = f.number("t_reached");
  r.step_size_min = f.number("step_size_min");
  r.step_size_max = f.number("step_size_max");
  r.condition_estimate_max = f.number("condition_estimate_max");
  r.newton_iterations_total = f.whole("newton_iterations_total", 0);
  r.newton_iterations_max = static_cast<int>(f.whole("newton_iterations_max", 0));
  r.newton_factorizations_total = f.whole("newton_factorizations_total", 0);
  r.newton_evaluations = read_evaluations(f, version);
  if (version >= 3) {  // before, a stalled solve failed its step: no run accepted one
    r.newton_stalled_steps = f.whole("newton_stalled_steps", 0);
    r.newton_stalled_residual_max = f.number("newton_stalled_residual_max");
  }
  const Vector phases = f.vector("phase_seconds", 3);
  r.phase_seconds = {phases(0), phases(1), phases(2)};
  r.refined_steps = f.whole("refined_steps", 0);
  const nlohmann::json& refinements = f.at("refinements");
  for (std::size_t i = 0; i < refinements.size(); ++i) {
    const Fields s(refinements[i], f.path("refinements") + "/" + std::to_string(i));
    r.refinements.push_back({s.whole("step", 0), s.number("t"), static_cast<int>(s.whole("substeps", 1)),
                             s.number("smallest_substep")});
  }
  r.smallest_substep = f.number("smallest_substep");
  const Fields p = f.object("initial_projection");
  r.initial_projection = {read_violation(p.object("positions")), read_violation(p.object("velocities")),
                          p.number("position_correction"), p.number("velocity_correction"),
                          static_cast<Index>(p.whole("position_coordinate", -1)),
                          static_cast<Index>(p.whole("velocity_coordinate", -1))};
  r.initial_projection_note = p.text("note");
  r.energy_initial = f.number("energy_initial");
  r.energy_final = f.number("energy_final");
  r.energy_max_abs_increment = f.number("energy_max_abs_increment");
  if (version >= 5) {  // before, the steps' work was not recorded: the resumed run's is not known
    r.work_total = f.number("work_total");
    r.energy_balance_max_abs = f.number("energy_balance_max_abs");
  }
  r.constraint_max_abs = f.number("constraint_max_abs");
  r.velocity_constraint_max_abs = f.number("velocity_constraint_max_abs");
  const nlohmann::json& drifts = f.at("invariant_drifts");
  for (std::size_t i = 0; i < drifts.size(); ++i) {
    const Fields d(drifts[i], f.path("invariant_drifts") + "/" + std::to_string(i));
    r.invariant_drifts.emplace_back(d.text("name"), d.number("drift"));
  }
  if (f.has("probe_maxima")) {  // absent before actuators: no model had summarized probes
    const nlohmann::json& maxima = f.at("probe_maxima");
    for (std::size_t i = 0; i < maxima.size(); ++i) {
      const Fields m(maxima[i], f.path("probe_maxima") + "/" + std::to_string(i));
      r.probe_maxima.emplace_back(m.text("name"), m.number("largest"));
    }
  }
  const nlohmann::json& momenta = f.at("conserved_momenta");
  for (std::size_t i = 0; i < momenta.size(); ++i) {
    const Fields c(momenta[i], f.path("conserved_momenta") + "/" + std::to_string(i));
    r.conserved_momenta.push_back({c.text("name"), c.number("initial"), c.number("final"), c.number("drift")});
  }
  return r;
}

Json recorder_json(const RunRecorder::Continuation& c) {
  Json invariants = Json::array();
  for (const Vector& value : c.invariants_initial) invariants.push_back(exact(value));
  return {{"invariants_initial", invariants},
          {"energy_last", exact(c.energy_last)},
          {"step_size_last", exact(c.step_size_last)},
          {"condition_last", exact(c.condition_last)},
          {"balance_last", exact(c.balance_last)},
          {"last_row_step", c.last_row_step}};
}

RunRecorder::Continuation read_recorder(const Fields& f, std::int64_t version) {
  RunRecorder::Continuation c;
  const nlohmann::json& invariants = f.at("invariants_initial");
  if (!invariants.is_array()) throw JsonInputError(f.path("invariants_initial"), "expects an array of arrays");
  for (std::size_t i = 0; i < invariants.size(); ++i) {
    const nlohmann::json wrapper = {{"value", invariants[i]}};
    c.invariants_initial.push_back(Fields(wrapper, f.path("invariants_initial") + "/" + std::to_string(i)).vector("value"));
  }
  c.energy_last = f.number("energy_last");
  c.step_size_last = f.number("step_size_last");
  c.condition_last = f.number("condition_last");
  if (version >= 5) c.balance_last = f.number("balance_last");
  c.last_row_step = f.whole("last_row_step", -1);
  return c;
}

void append_history(std::string& out, const StepperHistory& history) {
  out += '{';
  for (const auto& [key, values] : history.entries()) {
    append_key(out, key);
    append_exact(out, values);
  }
  out += '}';
}

StepperHistory read_history(const Fields& f) {
  StepperHistory::Entries entries;
  for (const auto& [key, value] : f.value().items()) {
    const Vector v = f.vector(key);
    entries[key] = std::vector<double>(v.data(), v.data() + v.size());
  }
  return StepperHistory(std::move(entries));
}

/// A checkpoint over parts' "parts" (version 6): the run's processes and the process whose part
/// the file holds.
void read_parts(const nlohmann::json& document, const Fields& f, std::int64_t version, Checkpoint& c) {
  if (version < 6 || !document.contains("parts")) return;
  const Fields parts = f.object("parts");
  c.processes = static_cast<int>(parts.whole("processes", 2));
  c.process = static_cast<int>(parts.whole("process", 0));
  if (c.process >= c.processes)
    throw JsonInputError(parts.path("process"), "is " + std::to_string(c.process) + " of " + std::to_string(c.processes) +
                                                    " processes: the file was edited or damaged");
}

}  // namespace

std::string checkpoint_json(const Checkpoint& c) {
  std::string out = "{";
  append_key(out, "format");
  out += Json(kFormat).dump();
  append_key(out, "version");
  out += std::to_string(Checkpoint::kFormatVersion);
  append_key(out, "run_id");
  out += Json(c.run_id).dump();
  if (c.process == 0) {  // another process's part of a checkpoint over parts: process 0's file holds them
    append_key(out, "options");
    out += options_json(c.options).dump();
  }
  append_key(out, "state");
  append_state(out, c.state);
  append_key(out, "next_h");
  append_exact(out, c.next_h);
  append_key(out, "stepper_history");
  append_history(out, c.stepper_history);
  append_key(out, "progress");
  out += progress_json(c.progress, c.wall_seconds).dump();
  append_key(out, "recorder");
  out += recorder_json(c.recorder).dump();
  append_key(out, "timeseries_length");
  out += std::to_string(c.timeseries_length);
  if (c.processes > 0) {
    append_key(out, "parts");
    out += Json{{"processes", c.processes}, {"process", c.process}}.dump();
  }
  out += "}\n";
  return out;
}

Checkpoint parse_checkpoint(std::string_view text, const std::string& origin) {
  try {
    const nlohmann::json document = parse_json(text, origin);
    const Fields f(document, "");
    if (!document.is_object() || document.value("format", "") != kFormat)
      throw JsonInputError("/format", std::string("is not \"") + kFormat + "\": not a noether checkpoint");
    const std::int64_t version = f.whole("version");
    if (version < 1 || version > Checkpoint::kFormatVersion)
      throw JsonInputError("/version", "is " + std::to_string(version) + "; this noether reads versions 1 to " +
                                           std::to_string(Checkpoint::kFormatVersion));
    Checkpoint c;
    if (version >= 4) c.run_id = f.text("run_id");
    read_parts(document, f, version, c);
    if (c.process == 0) c.options = read_options(f.object("options"), origin);
    c.state = read_state(f.object("state"));
    c.next_h = f.number("next_h");
    c.stepper_history = read_history(f.object("stepper_history"));
    c.progress = read_progress(f.object("progress"), version);
    c.wall_seconds = f.object("progress").number("wall_seconds");
    c.recorder = read_recorder(f.object("recorder"), version);
    // Process 0 writes the time series: another's part counts none of its bytes.
    c.timeseries_length = static_cast<std::uint64_t>(f.whole("timeseries_length", c.process > 0 ? 0 : 1));
    if (c.process == 0) check_saved_state(c);  // a part's against its run's options: read_part_checkpoint
    return c;
  } catch (const CheckpointError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    throw CheckpointError(what.rfind(origin, 0) == 0 ? what : origin + ": " + what);
  }
}

}  // namespace noether
