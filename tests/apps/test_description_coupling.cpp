// The coupling read off a description is the built system's: the cut of the model can be known
// before the model is built.
#include <doctest/doctest.h>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/apps/scene_file.hpp>

#include "support/every_description.hpp"

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

}  // namespace

TEST_CASE("every scenario's and example scene's description couples its bodies as its built system does") {
  testing::for_every_description(check_same_coupling);
}

TEST_CASE("a description naming a body it does not hold is refused by the coupling, naming the body") {
  ModelDescription description = find_scenario("double-pendulum").describe(resolve_parameters(find_scenario("double-pendulum"), {}));
  description.joints.front().b.body = "nowhere";
  CHECK_THROWS_WITH_AS(description_coupling(description), "no body named 'nowhere' in the model", std::invalid_argument);
}

TEST_CASE("a description with two bodies of one name is refused by the coupling, naming it") {
  ModelDescription description = find_scenario("double-pendulum").describe(resolve_parameters(find_scenario("double-pendulum"), {}));
  description.bodies.push_back(description.bodies.front());
  const std::string name = name_of(description.bodies.front());
  CHECK_THROWS_WITH_AS(description_coupling(description),
                       ("two bodies are named '" + name + "'; body names must be unique").c_str(), std::invalid_argument);
}
