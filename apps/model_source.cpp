#include <noether/apps/model_source.hpp>

namespace noether {

ModelDescription describe(const ModelSource& source) {
  if (const auto* s = std::get_if<ScenarioSource>(&source)) return find_scenario(s->name).describe(s->parameters);
  return std::get<SceneSource>(source).scene->model;
}

const std::string& source_name(const ModelSource& source) {
  if (const auto* s = std::get_if<ScenarioSource>(&source)) return s->name;
  return std::get<SceneSource>(source).scene->name;
}

}  // namespace noether
