// The coupling read off a description is the built system's: the cut of the model can be known
// before the model is built.
#include <doctest/doctest.h>

#include <filesystem>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/apps/scene_file.hpp>

using namespace noether;

namespace {

/// The blocks' sizes, the joins and the cut over 2, 3 and 5 processes agree.
void check_same_coupling(const ModelDescription& description) {
  const BlockCoupling described = description_coupling(description);
  const BlockCoupling built = block_coupling(*build_model(description).system);
  CHECK(std::ranges::equal(described.block_sizes(), built.block_sizes()));
  CHECK(described.joins() == built.joins());
  for (const int ranks : {2, 3, 5}) {
    CAPTURE(ranks);
    CHECK(block_processes(described, ranks) == block_processes(built, ranks));
  }
}

/// Sizes small enough for a unit test; the other parameters at their defaults.
ParameterValues small(const Scenario& scenario) {
  ParameterValues values;
  for (const ScenarioParameter& p : scenario.parameters)
    if (p.name == "n") values[p.name] = 12;
    else if (p.name == "k") values[p.name] = 4;
  return resolve_parameters(scenario, values);
}

}  // namespace

TEST_CASE("every scenario's description couples its bodies as its built system does") {
  for (const Scenario& scenario : scenarios()) {
    CAPTURE(scenario.name);
    check_same_coupling(scenario.describe(small(scenario)));
  }
}

TEST_CASE("every example scene's description couples its bodies as its built system does") {
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(NOETHER_SOURCE_DIR) / "examples/scenes")) {
    CAPTURE(entry.path().string());
    check_same_coupling(load_scene(entry.path()).model);
  }
}

TEST_CASE("a description naming a body it does not hold is refused by the coupling, naming the body") {
  ModelDescription description = find_scenario("double-pendulum").describe(small(find_scenario("double-pendulum")));
  description.joints.front().b.body = "nowhere";
  CHECK_THROWS_WITH_AS(description_coupling(description), "no body named 'nowhere' in the model", std::invalid_argument);
}
