#include <noether/apps/model_source.hpp>

#include <noether/apps/model/model_builder.hpp>

namespace noether {

ModelDescription describe(const ModelSource& source) {
  if (const auto* s = std::get_if<ScenarioSource>(&source)) return find_scenario(s->name).describe(s->parameters);
  return std::get<SceneSource>(source).scene->model;
}

std::shared_ptr<const Model> model_of(const ModelSource& source, const ModelDescription& description) {
  if (const auto* s = std::get_if<SceneSource>(&source); s && s->scene->built) return s->scene->built;
  return std::make_shared<const Model>(build_model(description));
}

const std::string& source_name(const ModelSource& source) {
  if (const auto* s = std::get_if<ScenarioSource>(&source)) return s->name;
  return std::get<SceneSource>(source).scene->name;
}

}  // namespace noether
