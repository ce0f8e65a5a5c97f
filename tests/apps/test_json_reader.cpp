/// parse_json's ElementTaker: the elements of top-level arrays handed over as they are parsed.
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/json_reader.hpp>

using namespace noether;

namespace {

struct Taken {
  std::string key;
  std::size_t index;
  nlohmann::json element;
};

/// A taker of the lists named `keys`, recording what it is handed.
ElementTaker recorder(std::vector<std::string> keys, std::vector<Taken>& taken) {
  return {[keys](std::string_view key) { return std::ranges::find(keys, key) != keys.end(); },
          [&taken](std::string_view key, std::size_t index, const nlohmann::json& element) {
            taken.push_back({std::string(key), index, element});
          }};
}

}  // namespace

TEST_CASE("the elements of the top-level arrays a taker takes are handed over in order, and left null") {
  std::vector<Taken> taken;
  const nlohmann::json document = parse_json(R"({"a": [{"x": [1, 2]}, 3, [4]], "b": [{"y": 1}], "c": {"a": [5]}})",
                                             "t.json", recorder({"a"}, taken));
  REQUIRE(taken.size() == 3);
  CHECK(taken[0].key == "a");
  CHECK(taken[0].index == 0);
  CHECK(taken[0].element == nlohmann::json::parse(R"({"x": [1, 2]})"));
  CHECK(taken[1].index == 1);
  CHECK(taken[1].element == 3);
  CHECK(taken[2].index == 2);
  CHECK(taken[2].element == nlohmann::json::parse("[4]"));
  // The taken elements are null, their array keeps its length; the arrays not taken are whole, a
  // nested "a" among them.
  CHECK(document == nlohmann::json::parse(R"({"a": [null, null, null], "b": [{"y": 1}], "c": {"a": [5]}})"));
}

TEST_CASE("a refusal after taken elements still names its path") {
  std::vector<Taken> taken;
  CHECK_THROWS_WITH_AS(parse_json(R"({"a": [{}, {}, {"m": 1, "m": 2}]})", "t.json", recorder({"a"}, taken)),
                       doctest::Contains("t.json: /a/2/m: the key 'm' is given twice"), std::invalid_argument);
  CHECK(taken.size() == 2);
}

TEST_CASE("an exception of the taker ends the parse and reaches the caller") {
  const ElementTaker refuse{[](std::string_view) { return true; },
                            [](std::string_view, std::size_t index, const nlohmann::json&) {
                              if (index == 1) throw std::runtime_error("element 1");
                            }};
  CHECK_THROWS_WITH_AS(parse_json(R"({"a": [0, 1, 2]})", "t.json", refuse), "element 1", std::runtime_error);
}

TEST_CASE("a document without a taker is read whole") {
  CHECK(parse_json(R"({"a": [1, {"b": 2}]})", "t.json") == nlohmann::json::parse(R"({"a": [1, {"b": 2}]})"));
}
