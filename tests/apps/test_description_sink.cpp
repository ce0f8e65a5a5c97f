// A generator's items through a sink: its outline is the one read off its whole description (the
// body numbers it states beside the names resolve as the names do), and a process's part, generated
// alone, is the part copied out of the whole description, item for item and number for number.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/scenarios/scenario.hpp>

#include "support/part_checks.hpp"

using namespace noether;
using noether::testing::check_same_outline;
using noether::testing::check_parts_of_whole;

namespace {

struct Generated {
  std::string scenario;
  ParameterValues overrides;
};

/// Every generated scenario, small.
const std::vector<Generated> kGenerated = {{"chain2d", {{"n", 7}}},  {"chain3d", {{"n", 6}}},
                                           {"chain3d", {{"n", 5}, {"joint", 1}}}, {"nfourbar", {{"n", 4}}},
                                           {"grid2d", {{"k", 3}}},  {"chain2d", {{"n", 1}}}};

DescriptionGenerator generator_of(const Generated& g) {
  const Scenario& scenario = find_scenario(g.scenario);
  REQUIRE(scenario.generate);
  return [&scenario, values = resolve_parameters(scenario, g.overrides)](DescriptionSink& sink) {
    scenario.generate(values, sink);
  };
}

}  // namespace

TEST_CASE("a generator's outline is its whole description's, and each part generated alone is the part copied out of it") {
  for (const Generated& g : kGenerated) {
    CAPTURE(g.scenario);
    const DescriptionGenerator generate = generator_of(g);
    const ModelDescription whole = described(generate);
    const DescriptionOutline outline = outlined(generate);
    check_same_outline(outline, outline_of(whole));
    check_parts_of_whole(outline, whole, [&](const PartSelection& selection) { return part_described(generate, selection); });
  }
}

TEST_CASE("a part holds the entries touching its own bodies that another process builds, not built") {
  // grid2d k = 1 (3 bars: v0_1, v1_1, h0_1) over 3 processes, one bar each: the coupler h0_1's
  // joints are built by the processes of the verticals (the smaller body), and described by h0_1's.
  const DescriptionGenerator generate = generator_of({"grid2d", {{"k", 1}}});
  const DescriptionOutline outline = outlined(generate);
  const std::vector<int> processes = {0, 1, 2};
  const PartDescription coupler = part_described(generate, select_part(outline, processes, 2));
  REQUIRE(coupler.description.joints.size() == 2);
  CHECK(coupler.description.joints[0].name == "left0_1");
  CHECK(coupler.description.joints[1].name == "right0_1");
  CHECK(coupler.builds[static_cast<std::size_t>(EntryList::joints)] == std::vector<bool>{false, false});
  CHECK(coupler.roles == std::vector<BodyRole>{BodyRole::owned});
  const ModelPart part = build_model_part(coupler, 2);
  CHECK(part.system->constraints().size() == 1);  // h0_1's own orthonormality, no joint
}

TEST_CASE("an outline takes its elements in the entry lists' order, on bodies it has") {
  DescriptionOutline outline;
  outline.add_body(6);
  outline.add_body(6);
  const std::vector<Index> both = {0, 1}, beyond = {0, 2};
  outline.add_element(EntryList::joints, 0, both);
  CHECK_THROWS_WITH_AS(outline.add_element(EntryList::joints, 0, both),
                       "an outline's elements follow the entry lists' order: entry 0 of list 1 came after entry 0 of list 1",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(outline.add_element(EntryList::inertias, 3, both),
                       "an outline's elements follow the entry lists' order: entry 3 of list 0 came after entry 0 of list 1",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(outline.add_element(EntryList::forces, 0, beyond), "an outline's element touches body 2 of 2 added",
                       std::invalid_argument);
}

TEST_CASE("a part generated alone refuses a generator that gives other bodies than its outline had") {
  Index bodies = 2;
  const DescriptionGenerator generate = [&bodies](DescriptionSink& sink) {
    for (Index b = 0; b < bodies; ++b) {
      std::string name = "m";  // appended: GCC 12 warns falsely on "literal" + std::string (-Wrestrict)
      name += std::to_string(b);
      sink.body(PointMassDescription{name, 1.0, Vector::Zero(2), Vector::Zero(2)});
    }
  };
  const PartSelection selection = select_part(outlined(generate), std::vector<int>{0, 0}, 0);
  bodies = 1;
  CHECK_THROWS_WITH_AS(part_described(generate, selection), "the generator gave 1 bodies, and the outline it was selected on 2",
                       std::invalid_argument);
  bodies = 3;
  CHECK_THROWS_WITH_AS(part_described(generate, selection),
                       "the generator gave more bodies than the outline it was selected on, 2", std::invalid_argument);
}

TEST_CASE("a part generated alone refuses a model-wide force between bodies, which no part would hold once") {
  const DescriptionGenerator generate = [](DescriptionSink& sink) {
    sink.body(PointMassDescription{"a", 1.0, Vector::Zero(2), Vector::Zero(2)});
    sink.model_wide().forces.push_back(PointForceDescription{"push", "a", Vector::Zero(2), Vector::Ones(2)});
  };
  const PartSelection selection = select_part(outlined(generate), std::vector<int>{0}, 0);
  CHECK_THROWS_WITH_AS(part_described(generate, selection),
                       "a generator's model-wide force 0 is not gravity: a force between bodies goes into the parts that "
                       "build it",
                       std::invalid_argument);
}
