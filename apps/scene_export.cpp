#include <noether/apps/scene_export.hpp>

#include <stdexcept>

namespace noether {

Scene export_scene(const RunOptions& options) {
  Scene scene;
  scene.run = resolve_run_configuration(options);
  scene.output_every = options.output_every;
  scene.output_vtk = options.write_motion;
  scene.output_reactions = options.write_reactions;
  if (options.scene) {
    const Scene& loaded = *options.scene->scene;
    if (loaded.parted)
      throw std::logic_error("export_scene: the scene was read for a run over parts (SceneBuild::outlined): its "
                             "bodies and entries are read by the parts");
    scene.name = loaded.name;
    scene.description = loaded.description;
    scene.model = loaded.model;
    scene.output_directory = loaded.output_directory;
    return scene;
  }
  const Scenario& scenario = find_scenario(options.scenario);
  scene.name = scenario.name;
  scene.description = scenario.description;
  scene.model = scenario.describe(resolve_parameters(scenario, options.overrides));
  return scene;
}

}  // namespace noether
