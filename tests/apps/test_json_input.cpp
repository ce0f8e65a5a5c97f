/// A key repeated in one object of a JSON text is refused at its path (apps/json_input.hpp).
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/json_input.hpp>
#include <noether/apps/json_reader.hpp>

using namespace noether;

namespace {

/// What refuse_duplicate_keys refuses text with, "" when it does not.
std::string refusal(const std::string& text) {
  try {
    refuse_duplicate_keys(text);
  } catch (const JsonInputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a key repeated in one object is refused at its path, in objects and arrays at any depth") {
  CHECK(refusal(R"({"mass": 7.0, "mass": 1.0})") ==
        "/mass: the key 'mass' appears twice in one object, and a JSON reader keeps only one of its values, silently: "
        "remove one");
  CHECK(refusal(R"({"run": {"h": 0.01}, "bodies": [{"name": "a"}, {"name": "b", "q": [1, [2, {}]], "name": "c"}]})")
            .starts_with("/bodies/1/name: the key 'name' appears twice"));
  CHECK(refusal(R"({"a": [[1, 2], {"x": {"y": 1, "y": 2}}]})").starts_with("/a/1/x/y: the key 'y' appears twice"));
  CHECK(refusal(R"({"run": {}, "run": {}})").starts_with("/run: the key 'run' appears twice"));
  CHECK(refusal(R"({"a/b": 1, "a/b": 2})").starts_with("/a/b: the key 'a/b' appears twice"));
}

TEST_CASE("keys that repeat only across objects, and texts without objects, are accepted") {
  CHECK(refusal(R"({"a": {"name": 1}, "b": {"name": 2}, "name": [{"name": 3}, {"name": 4}]})").empty());
  CHECK(refusal(R"([1, "name", {"name": null}])").empty());
  CHECK(refusal("3.5").empty());
  CHECK(refusal("{}").empty());
}
