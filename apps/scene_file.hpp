#pragma once
/// Scene files: a mechanism and the run it is made for, in JSON (docs/scenes.md teaches the format,
/// docs/scene.schema.json is its JSON Schema). `noether run scene.json` runs one; `noether export
/// SCENARIO` writes any built-in scenario as one that runs to the same bits. Read by
/// scene_reader.cpp, written by scene_writer.cpp; the names of kinds both use are scene_names.hpp's.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/apps/run_configuration.hpp>

namespace noether {

/// The format version this program reads and writes ("noether_scene": 1).
inline constexpr int kSceneFormatVersion = 1;

struct Scene {
  std::string name;         ///< the scene's name (summary "scenario"); the file's stem when not given
  std::string description;  ///< free text
  /// The mechanism; read with SceneBuild::outlined, only its model-wide items (probes, invariants,
  /// conserved momenta), its bodies and entries left to `parted`.
  ModelDescription model;
  /// The run settings (h and t_end required; the others default as for `noether run`).
  RunConfiguration run;
  int output_every = 1;  ///< timeseries.csv gets every N-th step
  bool output_vtk = true;  ///< the same steps are drawn into vtk/ and motion.pvd (`--vtk`)
  bool output_reactions = false;  ///< timeseries.csv gets the joints' reactions (`--reactions`)
  /// Where `noether run` writes its outputs when no --out is given (relative to the working directory).
  std::optional<std::filesystem::path> output_directory;
  /// The model parse_scene built from `model` to check it, which a run takes instead of building
  /// it again; null for a scene made otherwise (scene_of_scenario, by hand).
  std::shared_ptr<const Model> built;
  /// Read with SceneBuild::outlined: the mechanism as a run over parts reads it (its outline; each
  /// part read again from `text`); else empty.
  std::optional<PartedModel> parted;
  /// Read with SceneBuild::outlined: the scene's text, which `parted` reads the parts from and a
  /// run over parts that writes checkpoints copies into its output directory (SceneCopy); else null.
  std::shared_ptr<const std::string> text;
};

/// Whether reading a scene builds its model.
enum class SceneBuild {
  whole,  ///< built once to check it (build_model), and kept (Scene::built)
  /// neither built nor described: outlined (Scene::parted, Scene::text), for a run over parts
  /// (docs/distributed.md, "Stage 4") whose processes each read their own part again from the
  /// text, so that none holds the whole description or model. The elements' refusals come from
  /// the part that builds them (ModelDescriptionError's entry, not a JSON path); a body name that
  /// does not resolve is refused at the entry's JSON path ("/joints/3").
  outlined,
};

/// The scene of a JSON text. Every error is a std::invalid_argument "<origin>: <JSON path>: <what is
/// wrong and what is expected>": invalid JSON (with line and column), a missing or unknown key, a
/// value of the wrong kind or outside its range, a name that does not resolve, or (SceneBuild::whole)
/// an element the library refuses (JsonInputError, ModelDescriptionError translated to its path).
/// With SceneBuild::whole a scene that loads also builds. Refused before it is read or built when
/// it would not fit in memory (memory_budget.hpp: the share of the run's processes).
Scene parse_scene(std::string_view text, const std::string& origin, SceneBuild build = SceneBuild::whole);
/// parse_scene of a text held already: an outlined scene keeps `text` itself (Scene::text), no copy.
Scene parse_scene(std::shared_ptr<const std::string> text, const std::string& origin, SceneBuild build);

/// parse_scene of the file's contents (origin: the path); std::invalid_argument when it cannot be read.
Scene load_scene(const std::filesystem::path& path, SceneBuild build = SceneBuild::whole);

/// The scene as JSON text (2-space indentation), numbers written to read back as the same doubles:
/// parse_scene(scene_json(s)) builds a model bitwise equal to s's.
std::string scene_json(const Scene& scene);

/// Whether a `noether run` argument names a scene file rather than a scenario: it ends in ".json".
bool is_scene_file_name(std::string_view argument);

}  // namespace noether
