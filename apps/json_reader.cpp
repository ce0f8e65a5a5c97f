#include <noether/apps/json_reader.hpp>

#include <algorithm>
#include <cmath>

namespace noether {
namespace {

std::string type_name(const nlohmann::json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "the text " + value.dump();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_null()) return "null";
  if (value.is_array()) return "an array of " + std::to_string(value.size());
  return "an object";
}

/// "line L, column C" of the byte `at` (clamped to the text) of text.
std::string text_location(std::string_view text, std::size_t at) {
  at = std::min(at, text.size());
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t column = at - (line_start == std::string_view::npos || at == 0 ? 0 : line_start + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// Where the number starts that nlohmann's parser refused as beyond the doubles: its SAX interface
/// reports the position (the exception does not). Only the position is kept, nothing is built.
std::size_t overflow_start(std::string_view text) {
  struct Locator : nlohmann::json_sax<nlohmann::json> {
    std::size_t start = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string& token, const nlohmann::json::exception&) override {
      start = position >= token.size() ? position - token.size() : 0;
      return false;
    }
  } locator;
  nlohmann::json::sax_parse(text.begin(), text.end(), &locator);
  return locator.start;
}

/// Levenshtein distance, for "did you mean".
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace

JsonInputError::JsonInputError(const std::string& path, const std::string& message)
    : std::invalid_argument((path.empty() ? "/" : path) + ": " + message) {}

double json_number(const nlohmann::json& value, const std::string& path, const ParameterRange& range) {
  if (!value.is_number()) throw JsonInputError(path, "expects a number, got " + type_name(value));
  const double x = value.get<double>();
  if (const std::string refusal = range.refusal(x); !refusal.empty()) throw JsonInputError(path, refusal);
  return x;
}

Vector json_vector(const nlohmann::json& value, const std::string& path, Index size) {
  const std::string expected = size >= 0 ? std::to_string(size) + " numbers" : "an array of numbers";
  if (!value.is_array() || (size >= 0 && static_cast<Index>(value.size()) != size))
    throw JsonInputError(path, "expects " + expected + ", got " + type_name(value));
  Vector v(static_cast<Index>(value.size()));
  for (std::size_t i = 0; i < value.size(); ++i)
    v(static_cast<Index>(i)) = json_number(value[i], path + "/" + std::to_string(i), ParameterRange::any());
  return v;
}

nlohmann::json parse_json(std::string_view text, const std::string& origin) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    std::string reason = e.what();
    const std::size_t colon = reason.find(": ", reason.find("parse error"));
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    throw std::invalid_argument(origin + ": " + text_location(text, e.byte > 0 ? e.byte - 1 : 0) + ": not valid JSON (" +
                                reason + ")");
  } catch (const nlohmann::json::exception& e) {  // a number beyond the doubles, say (found by fuzz/scene_fuzzer.cpp)
    std::string reason = e.what();
    const std::size_t bracket = reason.find("] ");
    if (bracket != std::string::npos) reason = reason.substr(bracket + 2);
    if (reason.starts_with("number overflow")) reason += ": beyond the largest double, 1.8e308";
    throw std::invalid_argument(origin + ": " + text_location(text, overflow_start(text)) + ": not valid JSON (" +
                                reason + ")");
  }
}

JsonObject::JsonObject(const nlohmann::json& value, std::string path, std::string what)
    : value_(value), path_(std::move(path)), what_(std::move(what)) {
  if (!value_.is_object()) throw JsonInputError(path_, "expects " + what_ + " (a JSON object), got " + type_name(value_));
}

std::string JsonObject::path(std::string_view key) const { return path_ + "/" + std::string(key); }

void JsonObject::know(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
}

bool JsonObject::has(std::string_view key) {
  know(key);
  return value_.contains(key);
}

const nlohmann::json& JsonObject::at(std::string_view key, std::string_view meaning) {
  if (!has(key)) throw JsonInputError(path_, "missing key '" + std::string(key) + "' (" + std::string(meaning) + ")");
  return value_.at(key);
}

std::string JsonObject::text(std::string_view key, std::string_view meaning) {
  const nlohmann::json& v = at(key, meaning);
  if (!v.is_string()) throw JsonInputError(path(key), "expects a text (" + std::string(meaning) + "), got " + type_name(v));
  return v.get<std::string>();
}

std::string JsonObject::text_or(std::string_view key, std::string default_value) {
  return has(key) ? text(key, "a text") : default_value;
}

std::string JsonObject::choice(std::string_view key, std::span<const std::string_view> choices,
                               std::string_view default_value) {
  std::string accepted;
  for (std::string_view c : choices) accepted += (accepted.empty() ? "" : ", ") + std::string(c);
  if (!has(key) && !default_value.empty()) return std::string(default_value);
  const std::string value = text(key, "one of " + accepted);
  if (std::find(choices.begin(), choices.end(), value) == choices.end())
    throw JsonInputError(path(key), "unknown value '" + value + "'; accepted: " + accepted);
  return value;
}

double JsonObject::number(std::string_view key, std::string_view meaning, const ParameterRange& range) {
  return json_number(at(key, meaning), path(key), range);
}

double JsonObject::number_or(std::string_view key, double default_value, const ParameterRange& range) {
  return has(key) ? json_number(value_.at(key), path(key), range) : default_value;
}

int JsonObject::whole_or(std::string_view key, int default_value, int low, int high) {
  if (!has(key)) return default_value;
  return static_cast<int>(json_number(value_.at(key), path(key), ParameterRange::count(low, high)));
}

bool JsonObject::boolean_or(std::string_view key, bool default_value) {
  if (!has(key)) return default_value;
  const nlohmann::json& v = value_.at(key);
  if (!v.is_boolean()) throw JsonInputError(path(key), "expects true or false, got " + type_name(v));
  return v.get<bool>();
}

Vector JsonObject::vector(std::string_view key, std::string_view meaning, Index size) {
  return json_vector(at(key, meaning), path(key), size);
}

Vector JsonObject::vector_or_empty(std::string_view key, Index size) {
  return has(key) ? json_vector(value_.at(key), path(key), size) : Vector();
}

Matrix JsonObject::matrix(std::string_view key, std::string_view meaning, Index rows, Index cols) {
  const nlohmann::json& v = at(key, meaning);
  const std::string where = path(key);
  if (!v.is_array() || v.empty() || (rows >= 0 && static_cast<Index>(v.size()) != rows))
    throw JsonInputError(where, "expects " + (rows >= 0 ? std::to_string(rows) + " rows" : std::string("rows")) +
                                    " of numbers (" + std::string(meaning) + "), got " + type_name(v));
  const auto n = static_cast<Index>(v.size());
  const Index width = cols >= 0 ? cols : n;
  Matrix m(n, width);
  for (Index i = 0; i < n; ++i) m.row(i) = json_vector(v[static_cast<std::size_t>(i)], where + "/" + std::to_string(i), width).transpose();
  return m;
}

std::vector<std::string> JsonObject::texts(std::string_view key, std::string_view meaning) {
  const nlohmann::json& v = at(key, meaning);
  if (!v.is_array()) throw JsonInputError(path(key), "expects an array of texts (" + std::string(meaning) + "), got " + type_name(v));
  std::vector<std::string> list;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string())
      throw JsonInputError(path(key) + "/" + std::to_string(i), "expects a text, got " + type_name(v[i]));
    list.push_back(v[i].get<std::string>());
  }
  return list;
}

std::vector<std::string> JsonObject::texts_or_empty(std::string_view key) {
  return has(key) ? texts(key, "names") : std::vector<std::string>{};
}

JsonObject JsonObject::object(std::string_view key, std::string_view what) {
  return JsonObject(at(key, what), path(key), std::string(what));
}

void JsonObject::each(std::string_view key, std::string_view what,
                      const std::function<void(JsonObject&, std::size_t)>& f) {
  if (!has(key)) return;
  const nlohmann::json& list = value_.at(key);
  if (!list.is_array())
    throw JsonInputError(path(key), "expects an array of " + std::string(what) + " objects, got " + type_name(list));
  for (std::size_t i = 0; i < list.size(); ++i) {
    JsonObject element(list[i], path(key) + "/" + std::to_string(i), std::string(what));
    f(element, i);
    element.finish();
  }
}

void JsonObject::finish() const {
  for (const auto& [key, value] : value_.items()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string message = "unknown key '" + key + "'";
    for (const std::string& k : known_)
      if (edit_distance(k, key) <= 2) {
        message += " (did you mean '" + k + "'?)";
        break;
      }
    throw JsonInputError(path_, message + "; " + what_ + (known_.empty() ? " takes none" : " takes: " + joined(known_)));
  }
}

}  // namespace noether
