/// Reading scene files (scene_file.hpp): the root's keys and run settings into a Scene, each error
/// at its JSON path, and its lists' elements (read by scene_element_reader.hpp) as the scene's
/// SceneElements keep them: whole, outlined, or one part of a run over parts.
#include <noether/apps/scene_file.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <variant>

#include <noether/apps/json_reader.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/run_settings.hpp>
#include <noether/apps/scene_element_reader.hpp>
#include <noether/apps/scene_elements.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

/// An object of a scene file that holds run settings: its path (the part of a RunSetting::scene_key
/// before the setting's own key), what it holds (for messages) and whether a scene must give it
/// ("run": h and t_end have no default).
struct SettingsObject {
  std::string_view path, what;
  bool required;
};
constexpr std::array<SettingsObject, 3> kSettingsObjects{{{"/run", "the run settings", true},
                                                          {"/run/newton", "Newton's settings", false},
                                                          {"/output", "the output settings", false}}};

/// The objects along the settings' scene keys, each opened when a setting in it is first read:
/// "/run/newton/tolerance" is the key "tolerance" of "/run/newton", the key "newton" of "/run". An
/// optional object the file leaves out reads as empty, so that its settings take their defaults.
class SettingsObjects {
 public:
  explicit SettingsObjects(JsonObject& root) : root_(root) {}

  /// The object that holds the setting's key.
  JsonObject& of(const RunSetting& setting) {
    return at(setting.scene_key.substr(0, setting.scene_key.rfind('/')));
  }

  /// Refuses the keys no setting named, innermost object first.
  void finish() const {
    for (auto o = opened_.rbegin(); o != opened_.rend(); ++o) o->second.finish();
  }

 private:
  JsonObject& at(std::string_view path) {
    if (path.empty()) return root_;
    if (const auto found = opened_.find(path); found != opened_.end()) return found->second;
    const auto object = std::find_if(kSettingsObjects.begin(), kSettingsObjects.end(),
                                     [&](const SettingsObject& o) { return o.path == path; });
    if (object == kSettingsObjects.end())
      throw std::logic_error("no scene object '" + std::string(path) + "' for run settings: add it to kSettingsObjects");
    JsonObject& parent = at(path.substr(0, path.rfind('/')));
    const std::string_view key = path.substr(path.rfind('/') + 1);
    static const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& value = object->required || parent.has(key) ? parent.at(key, object->what) : empty;
    return opened_.emplace(std::string(path), JsonObject(value, parent.path(key), std::string(object->what))).first->second;
  }

  JsonObject& root_;
  std::map<std::string, JsonObject, std::less<>> opened_;  // by path: "/run" before "/run/newton"
};

/// The last part of a setting's scene key ("/run/newton/tolerance": "tolerance"), the key within
/// its object.
std::string_view key_of(const RunSetting& setting) {
  return setting.scene_key.substr(setting.scene_key.rfind('/') + 1);
}

/// The whole-number setting named `name`, in the setting's range; `value` when absent.
int read_whole(SettingsObjects& objects, std::string_view name, int value) {
  const RunSetting& setting = run_setting(name);
  const ParameterRange& range = setting.values.range;
  return objects.of(setting).whole_or(key_of(setting), value, static_cast<int>(range.low), static_cast<int>(range.high));
}

/// The number setting named `name`, in the setting's range; `value` when absent.
double read_number(SettingsObjects& objects, std::string_view name, double value) {
  const RunSetting& setting = run_setting(name);
  return objects.of(setting).number_or(key_of(setting), value, setting.values.range);
}

/// The number setting named `name`, in the setting's range; required.
double read_required_number(SettingsObjects& objects, std::string_view name, std::string_view meaning) {
  const RunSetting& setting = run_setting(name);
  return objects.of(setting).number(key_of(setting), meaning, setting.values.range);
}

/// The choice setting named `name`; `value` when absent.
std::string read_choice(SettingsObjects& objects, std::string_view name, std::string_view value) {
  const RunSetting& setting = run_setting(name);
  return objects.of(setting).choice(key_of(setting), setting.values.choices, value);
}

/// The stepper's own parameters, those it declares (SchemeParameter).
void read_scheme_parameters(SettingsObjects& objects, RunConfiguration& run) {
  const RunSetting& setting = run_setting("stepper_parameters");
  JsonObject& parent = objects.of(setting);
  if (!parent.has(key_of(setting))) return;
  JsonObject p = parent.object(key_of(setting), "stepper " + run.stepper);
  for (const SchemeParameter& declared : find_stepper(run.stepper).parameters)
    if (p.has(declared.name)) run.scheme_parameters[std::string(declared.name)] = p.number(declared.name, declared.meaning);
  p.finish();
}

/// The run settings, each at its scene key; those absent keep RunConfiguration's defaults.
RunConfiguration read_run(SettingsObjects& objects) {
  RunConfiguration run;
  const RunSetting& stepper = run_setting("stepper");
  std::vector<std::string_view> stepper_names;
  for (const StepperInfo& s : steppers()) stepper_names.push_back(s.name);
  run.stepper = objects.of(stepper).choice(key_of(stepper), stepper_names, run.stepper);
  read_scheme_parameters(objects, run);
  run.solver = *parse_linear_solver_kind(read_choice(objects, "solver", to_string(run.solver)));
  run.ordering = *parse_fill_ordering(read_choice(objects, "ordering", to_string(run.ordering)));
  run.h = read_required_number(objects, "h", "the time step");
  run.t_end = read_required_number(objects, "t_end", "the end time");
  run.max_steps = read_whole(objects, "max_steps", run.max_steps);
  run.newton.modified = read_choice(objects, "newton_method", newton_method_name(run.newton)) == "modified";
  run.newton.residual_tolerance = read_number(objects, "newton_tolerance", run.newton.residual_tolerance);
  run.newton.max_iterations = read_whole(objects, "newton_max_iterations", run.newton.max_iterations);
  run.newton.refresh_contraction = read_number(objects, "newton_refresh", run.newton.refresh_contraction);
  run.max_refinement_depth = read_whole(objects, "refine_depth", run.max_refinement_depth);
  run.redundancy = read_choice(objects, "redundant", redundancy_name(run.redundancy)) == "drop"
                       ? RunConfiguration::Redundancy::drop
                       : RunConfiguration::Redundancy::refuse;
  return run;
}

/// The output settings into scene, each at its scene key; those absent keep Scene's defaults.
void read_output(SettingsObjects& objects, Scene& scene) {
  scene.output_every = read_whole(objects, "every", scene.output_every);
  const RunSetting& vtk = run_setting("vtk");
  scene.output_vtk = objects.of(vtk).boolean_or(key_of(vtk), scene.output_vtk);  // true or false in a scene
  scene.output_reactions = read_choice(objects, "reactions", scene.output_reactions ? "on" : "off") == "on";
  const RunSetting& directory = run_setting("output_directory");
  JsonObject& output = objects.of(directory);
  if (!output.has(key_of(directory))) return;
  const std::string path = output.text(key_of(directory), "the output directory");
  if (path.empty())
    throw JsonInputError(output.path(key_of(directory)), "an empty text names no directory; give one (\"out\"), or "
                                                         "leave the key out to write files only where --out says");
  scene.output_directory = path;
}

/// The scene's lists, each element read as the parser completes it (ElementTaker) and handed to
/// `elements`, so that the document of a large scene is never held whole: 0.6 KB per 3D bar of
/// description instead of 6 KB of JSON, or less where elements keeps less. The first element
/// refused is kept, and reported once the format version is known to be this program's
/// (finish()): a scene of another version is refused as such, not for its first body.
class SceneLists {
 public:
  explicit SceneLists(SceneElements& elements) : elements_(elements) {}

  ElementTaker taker() {
    return {[](std::string_view key) { return find(key) != nullptr; },
            [this](std::string_view key, std::size_t index, const nlohmann::json& element) { take(*find(key), index, element); }};
  }

  /// Names each list's key as known to the scene's root, refusing one that is not an array (its
  /// elements were not taken); then rethrow_refused().
  void finish(JsonObject& root) const {
    for (const SceneListName& list : kSceneLists) root.array(list.key, list.what);
    rethrow_refused();
  }
  /// Rethrows the first element refused, if any.
  void rethrow_refused() const {
    if (refused_) std::rethrow_exception(refused_);
  }

 private:
  static const SceneListName* find(std::string_view key) {
    const auto at = std::ranges::find(kSceneLists, key, &SceneListName::key);
    return at == kSceneLists.end() ? nullptr : &*at;
  }

  void take(const SceneListName& list, std::size_t index, const nlohmann::json& element) {
    if (refused_ || !elements_.reads(list.kind, index)) return;
    try {
      JsonObject::read_element(element, "", list.key, index, list.what, [&](JsonObject& o) {
        elements_.add(index, read_element_of(list.kind, o));
      });
    } catch (const std::invalid_argument&) {
      refused_ = std::current_exception();
    }
  }

  SceneElements& elements_;
  std::exception_ptr refused_;
};

/// The rest of `scene` from its document, whose lists `lists` has read into scene.model as they
/// were parsed.
void read_scene(const nlohmann::json& document, const std::string& origin, const SceneLists& lists, Scene& scene) {
  JsonObject root(document, "", "a scene");
  const double version = root.number("noether_scene", "the format version, 1");
  if (version != kSceneFormatVersion)
    throw JsonInputError(root.path("noether_scene"), "this program reads scene format " +
                                                          std::to_string(kSceneFormatVersion) + ", got " + format_exact(version));
  lists.finish(root);
  scene.name = root.text_or("name", std::filesystem::path(origin).stem().string());
  if (const std::string hidden = hidden_character(scene.name); root.has("name") && !hidden.empty())
    throw JsonInputError(root.path("name"), "the scene's name " + quote(scene.name) + " holds " + hidden +
                                                "; a name must not contain a control or Unicode format character or a "
                                                "byte that is not UTF-8 (the printed summary shows it)");
  scene.description = root.text_or("description", "");
  ModelDescription& m = scene.model;
  if (root.has("conserved_momenta")) {
    JsonObject momenta = root.object("conserved_momenta", "the momentum components the run reports");
    m.conserved_momenta = read_conserved_momenta(momenta);
    momenta.finish();
  }
  SettingsObjects settings(root);
  scene.run = read_run(settings);
  read_output(settings, scene);
  settings.finish();
  root.finish();
}

/// Bounds on the bytes of memory that reading a scene file takes per byte of its text, with a
/// margin of about two over what a process of a run over two took as it read the chain3d,
/// chain2d and nfourbar scenes of 55 to 92 MB (docs/distributed.md, "Scene files over parts"):
/// the text and the description read from it, 2.4 to 3.5 bytes per byte beyond the process's own
/// 40 MB (the document is never whole: SceneLists), or, outlined, the text and the outline, 1.4 to 1.6.
constexpr double kSceneBytesPerTextByte = 8.0;
constexpr double kOutlinedSceneBytesPerTextByte = 3.0;

/// Refuses a scene too large for the memory the run's processes may use before it is built, as the
/// generated scenarios are (apps/mechanisms/memory_budget.hpp): the generators' measured peak per
/// bar of building and stepping, a 3D bar's for each rigid body and a planar bar's for any other
/// body (a point mass or a block of coordinates needs less; the estimate errs on the safe side).
void require_memory_for_scene(double rigid, double others) {
  const double bodies = rigid + others;
  require_memory_for_model(bodies, rigid * k3dBarPeakBytes + others * kPlanarBarPeakBytes,
                           "the model of " + std::to_string(std::llround(bodies)) + " bodies",
                           std::to_string(std::lround(k3dBarPeakBytes / 1e3)) + " KB per rigid body, " +
                               std::to_string(std::lround(kPlanarBarPeakBytes / 1e3)) + " KB per other body");
}

void require_memory_for_scene(const ModelDescription& m) {
  const auto rigid = static_cast<double>(std::count_if(m.bodies.begin(), m.bodies.end(), [](const BodyDescription& b) {
    return std::holds_alternative<RigidBodyDescription>(b);
  }));
  require_memory_for_scene(rigid, static_cast<double>(m.bodies.size()) - rigid);
}

/// "/joints/3/body_b" for the entry and field of a ModelDescriptionError ("terms[1]" -> "terms/1").
std::string json_path(const ModelDescriptionError& e) {
  std::string field = e.field();
  for (char& c : field)
    if (c == '[' || c == '.') c = '/';
  std::erase(field, ']');
  return "/" + e.section() + "/" + std::to_string(e.index()) + (field.empty() ? "" : "/" + field);
}

/// Refuses to read a scene of `bytes` bytes of JSON that would not fit in memory: checked before
/// parsing, since a document that runs out of memory part-way cannot be destroyed (its destructor
/// allocates), and ends the program.
void require_memory_for_text(std::uintmax_t bytes, const std::string& origin, SceneBuild build) {
  const double per_byte = build == SceneBuild::outlined ? kOutlinedSceneBytesPerTextByte : kSceneBytesPerTextByte;
  require_memory(per_byte * static_cast<double>(bytes),
                 "reading the scene " + quote(origin) + " (" + std::to_string(bytes / 1000000) + " MB of JSON)",
                 std::to_string(static_cast<int>(per_byte)) + " bytes per byte of JSON");
}

/// A scene's mechanism as a run over parts reads it: its outline, and each process's part read
/// again from `text` (ScenePartElements), which the model's copies keep.
PartedModel parted_scene(std::shared_ptr<const std::string> text, const std::string& origin, SceneOutline outline) {
  auto kept = std::make_shared<const SceneOutline>(std::move(outline));
  return {kept->outline, [text = std::move(text), origin, kept](const PartSelection& selection) {
            ScenePartElements elements(*kept, selection);
            SceneLists lists(elements);
            parse_json(*text, origin, lists.taker());  // the root's other keys were read with the outline
            try {
              lists.rethrow_refused();
            } catch (const std::invalid_argument& e) {
              throw std::invalid_argument(origin + ": " + e.what());
            }
            return elements.finish();
          }};
}

/// With SceneBuild::outlined, the scene's outline in place of its description (Scene::parted).
void outline_scene(SceneOutliner& outliner, std::shared_ptr<const std::string> text, const std::string& origin, Scene& scene) {
  SceneOutline outline = outliner.finish();
  require_memory_for_scene(outline.rigid_bodies, outline.other_bodies);
  outline.model_wide.conserved_momenta = scene.model.conserved_momenta;
  scene.model = outline.model_wide;
  scene.text = text;
  scene.parted = parted_scene(std::move(text), origin, std::move(outline));
}

/// The scene of `text`; `owner`, when not null, holds it (an outlined scene keeps it).
Scene read_scene_text(std::string_view text, std::shared_ptr<const std::string> owner, const std::string& origin,
                      SceneBuild build) {
  require_memory_for_text(text.size(), origin, build);
  Scene scene;
  SceneDescription whole(scene.model);
  SceneOutliner outliner;
  SceneLists lists(build == SceneBuild::outlined ? static_cast<SceneElements&>(outliner) : whole);
  std::optional<nlohmann::json> document(parse_json(text, origin, lists.taker()));
  try {
    read_scene(*document, origin, lists, scene);
    document.reset();  // freed before the model is built, so that the two never lie side by side
    try {
      if (build == SceneBuild::outlined) {
        outline_scene(outliner, owner ? std::move(owner) : std::make_shared<const std::string>(text), origin, scene);
      } else {
        require_memory_for_scene(scene.model);
        scene.built = std::make_shared<const Model>(build_model(scene.model));
      }
    } catch (const ModelDescriptionError& e) {
      throw JsonInputError(json_path(e), e.message());
    }
    try {
      check_run_configuration(scene.run);
    } catch (const std::invalid_argument& e) {
      throw JsonInputError("/run", e.what());
    }
    return scene;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
}

}  // namespace

Scene parse_scene(std::string_view text, const std::string& origin, SceneBuild build) {
  return read_scene_text(text, nullptr, origin, build);
}

Scene parse_scene(std::shared_ptr<const std::string> text, const std::string& origin, SceneBuild build) {
  const std::string_view view = *text;
  return read_scene_text(view, std::move(text), origin, build);
}

Scene load_scene(const std::filesystem::path& path, SceneBuild build) {
  const std::string what = "cannot read the scene file " + quote(path.string());
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw std::invalid_argument(what + ": it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(what + " (" + std::strerror(errno) + ")");
  // A file too large is refused before it is read (not a pipe, whose size is known only after). The
  // text is read into a string of the file's size: a growing buffer (a stringstream's) would hold up
  // to three times the text at once as it doubles.
  std::string text;
  std::error_code no_size;
  if (const std::uintmax_t bytes = std::filesystem::file_size(path, no_size); !no_size) {
    require_memory_for_text(bytes, path.string(), build);
    text.reserve(static_cast<std::size_t>(bytes));
  }
  std::array<char, 1 << 16> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw std::invalid_argument(what + " (" + std::strerror(errno) + ")");
  return parse_scene(std::make_shared<const std::string>(std::move(text)), path.string(), build);
}

bool is_scene_file_name(std::string_view argument) { return argument.ends_with(".json"); }

}  // namespace noether
