#pragma once
// Every built-in scenario's description at sizes small enough for a unit test, and every example
// scene's: the models the description-level checks (coupling, parts) run over.
#include <doctest/doctest.h>

#include <filesystem>

#include <noether/apps/model/model_description.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/apps/scene_file.hpp>

namespace noether::testing {

/// check(description) for each scenario (n = 12, k = 4, the other parameters at their defaults)
/// and each scene of examples/scenes, each captured by its name.
template <class Check>
void for_every_description(Check&& check) {
  for (const Scenario& scenario : scenarios()) {
    CAPTURE(scenario.name);
    ParameterValues values;
    for (const ScenarioParameter& p : scenario.parameters)
      if (p.name == "n") values[p.name] = 12;
      else if (p.name == "k") values[p.name] = 4;
    check(scenario.describe(resolve_parameters(scenario, values)));
  }
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(NOETHER_SOURCE_DIR) / "examples/scenes")) {
    CAPTURE(entry.path().string());
    check(load_scene(entry.path()).model);
  }
}

}  // namespace noether::testing
