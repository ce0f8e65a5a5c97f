#pragma once
/// JSON text checked for what nlohmann::json's parser lets through: a key repeated in one object.
/// RFC 8259 leaves the meaning of a repeated name open and nlohmann::json keeps its last value, so
/// a file that says `"h":0.001,"h":0.002` would be read as one of them without a word.
#include <string_view>

namespace noether {

/// Throws JsonInputError (json_reader.hpp) at the JSON path of the first key that repeats one
/// earlier in the same object ("/options/h: the key 'h' appears twice in this object ...").
/// text must be valid JSON: parse it first (parse_json), which reports a syntax error with its
/// line and column; here a syntax error ends the check without a refusal.
void refuse_duplicate_keys(std::string_view text);

}  // namespace noether
