/// The joint part of docs/scene.schema.json and the joint table of docs/scenes.md are the library's
/// joint kinds as their descriptors (apps/model/joint_kinds.hpp) state them, so that neither can
/// fall behind the reader and the writer, which read the same descriptors. When a kind is added or
/// changed, the test prints the schema fragment and the table to paste.
#include <iostream>
#include <string>
#include <string_view>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/model/joint_kinds.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
/// Ordered, so that the fragment printed to paste keeps the file's order of keys.
using Json = nlohmann::ordered_json;

namespace {

const std::string kDocs = std::string(NOETHER_SOURCE_DIR) + "/docs/";

/// An attachment datum's keys, in the order scene files list them: side A's, then side B's.
struct Datum {
  const char* field;
  Takes JointSideData::*takes;
};
constexpr Datum kData[]{{"point", &JointSideData::point}, {"axis", &JointSideData::axis}, {"normal", &JointSideData::normal}};

Json number_array() { return {{"type", "array"}, {"items", {{"type", "number"}}}}; }

/// The schema's properties of side `s` ("a" or "b").
void add_side(Json& properties, const JointSideData& side, const std::string& s) {
  properties["body_" + s] = {{"type", "string"}};
  for (const Datum& d : kData) {
    if (side.*d.takes == Takes::no) continue;
    Json property = number_array();
    if (std::string(d.field) == "point") property["description"] = "body coordinates, or world for the ground (default: the origin)";
    properties[d.field + ("_" + s)] = property;
  }
}

/// The schema of one kind: its keys, the required ones (type, name, body_b, the required data by
/// field, side A before side B, then the numbers), nothing else.
Json kind_schema(const JointKind& kind) {
  Json properties{{"type", {{"const", std::string(kind.name)}}},
                            {"name", {{"type", "string"}, {"description", "unique among its kind; names the element in messages and outputs"}}}};
  add_side(properties, kind.a, "a");
  add_side(properties, kind.b, "b");
  Json required{"type", "name", "body_b"};
  for (const Datum& d : kData)
    for (const auto& [side, s] : {std::pair{kind.a, "_a"}, std::pair{kind.b, "_b"}})
      if (side.*d.takes == Takes::required) required.push_back(d.field + std::string(s));
  for (const JointNumber& n : kind.numbers) {
    Json number{{"type", "number"}};
    if (n.sign == NumberSign::positive) number["exclusiveMinimum"] = 0;
    if (n.sign == NumberSign::nonnegative) number["minimum"] = 0;
    properties[std::string(n.key)] = number;
    required.push_back(std::string(n.key));
  }
  return {{"type", "object"}, {"properties", properties}, {"required", required}, {"additionalProperties", false},
          {"description", "body_a omitted: the ground"}};
}

Json joint_schema() {
  Json kinds = Json::array();
  for (const JointKind* kind : joint_kinds::library()) kinds.push_back(kind_schema(*kind));
  return {{"oneOf", kinds}};
}

/// A kind's keys as docs/scenes.md lists them: required ones in bold, the numbers with their sign.
/// (Built by appending: GCC 12 warns falsely of an overlapping copy in a chain of operator+.)
std::string keys_cell(const JointKind& kind) {
  std::string cell;
  const auto add = [&](std::string_view key, bool bold, std::string_view sign) {
    if (!cell.empty()) cell.append(", ");
    if (bold) cell.append("**");
    cell.append(key);
    if (bold) cell.append("**");
    cell.append(sign);
  };
  for (const Datum& d : kData)
    for (const auto& [side, s] : {std::pair{kind.a, "_a"}, std::pair{kind.b, "_b"}})
      if (side.*d.takes != Takes::no) add(d.field + std::string(s), side.*d.takes == Takes::required, "");
  for (const JointNumber& n : kind.numbers)
    add(n.key, true, n.sign == NumberSign::positive ? " > 0" : n.sign == NumberSign::nonnegative ? " >= 0" : "");
  if (!kind.keys_note.empty()) cell.append(" ").append(kind.keys_note);
  return cell;
}

std::string joint_table() {
  std::string table = "| type | keys | relative DOF |\n|---|---|---|\n";
  for (const JointKind* kind : joint_kinds::library())
    table.append("| `").append(kind->name).append("` | ").append(keys_cell(*kind)).append(" | ").append(kind->freedom).append(" |\n");
  return table;
}

}  // namespace

TEST_CASE("docs/scene.schema.json's joint part is the joint kinds' descriptors") {
  const Json schema = Json::parse(testing::read_file(kDocs + "scene.schema.json"));
  const Json expected = joint_schema();
  const bool same = schema["$defs"]["joint"] == expected;
  if (!same) std::cout << "docs/scene.schema.json, \"$defs\" / \"joint\" should read:\n" << expected.dump(2) << "\n";
  CHECK(same);
}

TEST_CASE("docs/scenes.md's joint table is the joint kinds' descriptors") {
  const std::string table = joint_table();
  const bool found = testing::read_file(kDocs + "scenes.md").find(table) != std::string::npos;
  if (!found) std::cout << "docs/scenes.md, section 'joints', should hold the table:\n" << table;
  CHECK(found);
}

TEST_CASE("every library joint kind has a constructor, a name scene files accept and its doc line") {
  for (const JointKind* kind : joint_kinds::library()) {
    CAPTURE(kind->name);
    const bool has_constructor = kind->make != nullptr;
    CHECK(has_constructor);
    CHECK(joint_kinds::find(kind->name) == kind);
    CHECK_FALSE(kind->freedom.empty());
  }
}
