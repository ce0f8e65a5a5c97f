#pragma once
/// Where a run's model comes from: a built-in scenario with its resolved parameters, or a scene file.
/// A run carries it (RunPlan::source), so that what records a run (a checkpoint, say) can rebuild
/// the same model: build_model(describe(source)) gives it, bitwise.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include <noether/apps/scene_copy.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

struct PartedModel;  // apps/model/description_sink.hpp

struct ScenarioSource {
  std::string name;
  ParameterValues parameters;  ///< every parameter, resolved (defaults and overrides)
};

struct SceneSource {
  std::filesystem::path path;
  /// As loaded from path (over parts outlined: SceneBuild). Null where a run over parts has left
  /// the scene to its parts: in the run's own options and plan once the process's part is built
  /// (run()), and in the options of the checkpoint a run over parts resumes (the run's copy holds
  /// it), or until read_checkpoint reads it from `copy`.
  std::shared_ptr<const Scene> scene;
  /// Over parts, once the scene's text is copied into the run's output directory for its
  /// checkpoints (CheckpointWriter): which text the copy holds, which checkpoint.json names.
  std::optional<SceneCopy> copy = std::nullopt;
};

using ModelSource = std::variant<ScenarioSource, SceneSource>;

/// The description of the source's mechanism: the scenario's for its parameters, or the scene's.
ModelDescription describe(const ModelSource& source);

/// The source's mechanism as a run over parts reads it: a generated scenario's generator (each
/// process describes its part alone), else the whole description (describe(source), a scene's
/// own).
PartedModel parted_model(const ModelSource& source);

/// The model of the source's mechanism, built from `description` (describe(source)), or for a
/// scene the one built when it was read (Scene::built), bitwise the same, not built again.
std::shared_ptr<const Model> model_of(const ModelSource& source, const ModelDescription& description);

/// The scenario's name, or the scene's.
const std::string& source_name(const ModelSource& source);

}  // namespace noether
