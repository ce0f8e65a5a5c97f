#include <noether/apps/model_source.hpp>

#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model_builder.hpp>

#include <stdexcept>

namespace noether {

ModelDescription describe(const ModelSource& source) {
  if (const auto* s = std::get_if<ScenarioSource>(&source)) return find_scenario(s->name).describe(s->parameters);
  const Scene& scene = *std::get<SceneSource>(source).scene;
  if (scene.parted)
    throw std::logic_error("describe: the scene was read for a run over parts (SceneBuild::outlined): its bodies "
                           "and entries are read by the parts");
  return scene.model;
}

PartedModel parted_model(const ModelSource& source) {
  if (const auto* s = std::get_if<ScenarioSource>(&source)) {
    const Scenario& scenario = find_scenario(s->name);
    if (!scenario.generate) return parted(std::make_shared<const ModelDescription>(scenario.describe(s->parameters)));
    return parted([&scenario, parameters = s->parameters](DescriptionSink& sink) { scenario.generate(parameters, sink); });
  }
  const std::shared_ptr<const Scene>& scene = std::get<SceneSource>(source).scene;
  if (scene->parted) return *scene->parted;
  return parted(std::shared_ptr<const ModelDescription>(scene, &scene->model));
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
