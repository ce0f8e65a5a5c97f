// A scene read for a run over parts (SceneBuild::outlined) keeps its outline alone, and each part
// read again from its text is the part copied out of the whole description: the same outline, the
// same items, numbers and flags, the same built part; and the references the whole's reading
// refuses are refused at the entry's JSON path.
#include <doctest/doctest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scene_elements.hpp>
#include <noether/apps/scene_file.hpp>

#include "support/every_description.hpp"
#include "support/part_checks.hpp"

using namespace noether;
using noether::testing::check_same_outline;
using noether::testing::check_parts_of_whole;

namespace {

/// The scene file of a description, runnable (h = 0.01, t_end = 0.1).
std::string scene_text(const ModelDescription& description) {
  Scene scene;
  scene.name = "parts";
  scene.model = description;
  scene.run.h = 0.01;
  scene.run.t_end = 0.1;
  return scene_json(scene);
}

/// The message reading `text` outlined gives, or "(accepted)".
std::string outlined_refusal(const std::string& text) {
  try {
    parse_scene(text, "parts.json", SceneBuild::outlined);
    return "(accepted)";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("an outlined scene's parts, read again from its text, are the parts of its whole description") {
  std::array<bool, kEntryLists> lists_seen{};
  bool probes_seen = false, invariants_seen = false;
  testing::for_every_description([&](const ModelDescription& description) {
    const std::string text = scene_text(description);
    const Scene whole = parse_scene(text, "parts.json", SceneBuild::whole);
    const Scene outlined = parse_scene(text, "parts.json", SceneBuild::outlined);
    REQUIRE(outlined.parted);
    CHECK_FALSE(whole.parted);
    REQUIRE(outlined.text);  // the text the parts are read from, kept once
    CHECK(*outlined.text == text);
    CHECK_FALSE(whole.text);
    CHECK(outlined.model.bodies.empty());  // the description is left to the parts
    CHECK(outlined.model.joints.empty());
    CHECK(outlined.model.probes.size() == whole.model.probes.size());
    const DescriptionOutline outline = outline_of(whole.model);
    check_same_outline(outlined.parted->outline, outline);
    for (std::size_t e = 0; e < outline.num_elements(); ++e) lists_seen[static_cast<std::size_t>(outline.list(e))] = true;
    probes_seen = probes_seen || !whole.model.probes.empty();
    invariants_seen = invariants_seen || !whole.model.invariants.empty();
    check_parts_of_whole(outline, whole.model, [&](const PartSelection& selection) { return outlined.parted->part(selection); });
  });
  // The models above hold every kind of list the parts read, so each was compared.
  for (std::size_t l = 0; l < kEntryLists; ++l) {
    CAPTURE(l);
    CHECK(lists_seen[l]);
  }
  CHECK(probes_seen);
  CHECK(invariants_seen);
}

TEST_CASE("an outlined scene may give its joints before its bodies") {
  nlohmann::json scene = nlohmann::json::parse(
      scene_text(find_scenario("double-fourbar").describe(resolve_parameters(find_scenario("double-fourbar"), {}))));
  // nlohmann's objects keep their keys sorted ("bodies" before "joints"): the text is put together by hand.
  std::string text = "{\"joints\": " + scene["joints"].dump() + ", ";
  scene.erase("joints");
  text += scene.dump().substr(1);
  REQUIRE(text.find("\"joints\"") < text.find("\"bodies\""));
  const Scene outlined = parse_scene(text, "parts.json", SceneBuild::outlined);
  check_same_outline(outlined.parted->outline, outline_of(parse_scene(text, "parts.json").model));
}

TEST_CASE("an outlined scene refuses a name no body holds at the entry's JSON path, and two bodies of one name") {
  using P = nlohmann::json::json_pointer;
  const nlohmann::json scene = nlohmann::json::parse(
      scene_text(find_scenario("double-fourbar").describe(resolve_parameters(find_scenario("double-fourbar"), {}))));
  nlohmann::json unknown = scene;
  unknown[P("/joints/1/body_b")] = "nobody";
  CHECK(outlined_refusal(unknown.dump()) == "parts.json: /joints/1: no body named 'nobody' in the model");
  nlohmann::json twice = scene;
  twice[P("/bodies/1/name")] = twice[P("/bodies/0/name")];
  CHECK(outlined_refusal(twice.dump()).find("two bodies are named") != std::string::npos);
  nlohmann::json probe = scene;
  probe["probes"] = {{{"name", "tip"}, {"body", "nobody"}, {"point", {0, 0}}}};
  CHECK(outlined_refusal(probe.dump()) == "parts.json: /probes/0/body: no body named 'nobody'");
  // An element the JSON refuses is refused as the whole's reading refuses it.
  nlohmann::json broken = scene;
  broken[P("/bodies/0/name")] = 3;
  CHECK(outlined_refusal(broken.dump()).find("parts.json: /bodies/0/name") == 0);
  CHECK(outlined_refusal(scene.dump()) == "(accepted)");
}

TEST_CASE("a part's reader declines the probes and invariants, which the outline holds for every part") {
  SceneOutliner outliner;
  const SceneOutline outline = outliner.finish();
  const PartSelection selection;
  ScenePartElements part(outline, selection);
  CHECK_FALSE(part.reads(SceneListKind::probes, 0));
  CHECK_FALSE(part.reads(SceneListKind::invariants, 0));
  constexpr auto probes = static_cast<std::size_t>(SceneListKind::probes);
  CHECK_THROWS_AS(part.add(0, SceneElement(std::in_place_index<probes>)), std::logic_error);
}
