#include <noether/apps/json_reader.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

std::string type_name(const nlohmann::json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "the text " + escaped(value.dump());  // dump() escapes only C0 controls
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

/// "~" and "/" in a key as a JSON Pointer writes them ("~0", "~1"), hidden characters escaped.
std::string pointer_token(std::string_view key) {
  std::string token;
  for (const char c : key) token += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return escaped(token);
}

/// Builds the document of a JSON text from the events of nlohmann's SAX parser, as nlohmann's own
/// parser does, and stops at what parse_json refuses, keeping what its message needs: a key that
/// its object has already (nlohmann keeps the last value silently, and so would a reader of the
/// scene: "mass": 7, "mass": 1 gives 1 kg), named by its JSON path; a syntax error or a number
/// beyond the doubles, at its byte (the exception nlohmann passes does not say where a number
/// starts).
class DocumentBuilder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  DocumentBuilder(nlohmann::json& root, const ElementTaker& taker) : root_(root), taker_(taker) {}

  bool null() override { return add(nullptr); }
  bool boolean(bool value) override { return add(value); }
  bool number_integer(number_integer_t value) override { return add(value); }
  bool number_unsigned(number_unsigned_t value) override { return add(value); }
  bool number_float(number_float_t value, const string_t&) override { return add(value); }
  bool string(string_t& value) override { return add(std::move(value)); }
  bool binary(binary_t& value) override { return add(std::move(value)); }
  bool start_object(std::size_t) override { return open(nlohmann::json::value_t::object); }
  bool start_array(std::size_t) override { return open(nlohmann::json::value_t::array); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& key) override {
    nlohmann::json& object = *open_.back();
    if (open_.size() == 1) top_key_ = key;
    if (object.contains(key)) {
      repeated_key_path_ = path_to_open() + "/" + pointer_token(key);
      repeated_key_ = key;
      return false;
    }
    member_ = &object[key];
    return true;
  }

  bool parse_error(std::size_t position, const std::string& token, const nlohmann::json::exception& e) override {
    std::string reason = e.what();
    if (e.id >= 100 && e.id < 200) {  // a syntax error: "[json.exception.parse_error.101] parse error at ...: <reason>"
      const std::size_t colon = reason.find(": ", reason.find("parse error"));
      if (colon != std::string::npos) reason = reason.substr(colon + 2);
      error_at_ = position > 0 ? position - 1 : 0;
    } else {  // a number beyond the doubles (found by fuzz/scene_fuzzer.cpp): where that number starts
      const std::size_t bracket = reason.find("] ");
      if (bracket != std::string::npos) reason = reason.substr(bracket + 2);
      if (reason.starts_with("number overflow")) reason += ": beyond the largest double, 1.8e308";
      error_at_ = position >= token.size() ? position - token.size() : 0;
    }
    error_ = reason;
    return false;
  }

  /// Why the parse stopped, as parse_json's message says it after "<origin>: ".
  std::string refusal(std::string_view text) const {
    if (!repeated_key_path_.empty())
      return JsonInputError(repeated_key_path_, "the key " + quote(repeated_key_) +
                                                    " is given twice in this object; give it once (a JSON reader "
                                                    "keeps one of the two values)")
          .what();
    return text_location(text, error_at_) + ": not valid JSON (" + error_ + ")";
  }

 private:
  /// Puts value where the document is at: the root, the end of the open array, or the value of
  /// the key just read. The open values stay where they are: an array grows only while it is the
  /// innermost open value, and an object's values are nodes of a std::map.
  template <class Value>
  nlohmann::json* place(Value&& value) {
    if (open_.empty()) {
      root_ = nlohmann::json(std::forward<Value>(value));
      return &root_;
    }
    nlohmann::json& parent = *open_.back();
    if (parent.is_array()) return &parent.emplace_back(std::forward<Value>(value));
    *member_ = nlohmann::json(std::forward<Value>(value));
    return member_;
  }
  template <class Value>
  bool add(Value&& value) {
    place(std::forward<Value>(value));
    hand_over_element();
    return true;
  }
  bool open(nlohmann::json::value_t type) {
    open_.push_back(place(type));
    return true;
  }
  bool close() {
    open_.pop_back();
    hand_over_element();
    return true;
  }

  /// Hands the value just completed to the taker where it is an element of a top-level array
  /// that the taker takes, and leaves null in its place.
  void hand_over_element() {
    if (open_.size() != 2 || !open_[0]->is_object() || !open_[1]->is_array() || !taker_.takes || !taker_.takes(top_key_))
      return;
    nlohmann::json& list = *open_[1];
    taker_.take(top_key_, list.size() - 1, list.back());
    list.back() = nullptr;
  }

  /// The JSON path of the innermost open value: each open value's position in the one before it
  /// (an array's last element; an object's member found by its address, once, for the message).
  std::string path_to_open() const {
    std::string path;  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "/" + string
    for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
      path += '/';
      const nlohmann::json& parent = *open_[i];
      if (parent.is_array()) {
        path += std::to_string(parent.size() - 1);
        continue;
      }
      for (const auto& [key, value] : parent.items())
        if (&value == open_[i + 1]) path += pointer_token(key);
    }
    return path;
  }

  nlohmann::json& root_;
  const ElementTaker& taker_;
  std::string top_key_;  ///< the top-level key read last
  std::vector<nlohmann::json*> open_;  ///< the open objects and arrays, outermost first
  nlohmann::json* member_ = nullptr;   ///< the value of the key just read
  std::string repeated_key_, repeated_key_path_, error_;
  std::size_t error_at_ = 0;
};

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

nlohmann::json parse_json(std::string_view text, const std::string& origin, const ElementTaker& taker) {
  nlohmann::json document;
  DocumentBuilder builder(document, taker);
  if (!nlohmann::json::sax_parse(text.begin(), text.end(), &builder))
    throw std::invalid_argument(origin + ": " + builder.refusal(text));
  return document;
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
  if (!has(key)) throw JsonInputError(path_, "missing key " + quote(key) + " (" + std::string(meaning) + ")");
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
    throw JsonInputError(path(key), "unknown value " + quote(value) + "; accepted: " + accepted);
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

void JsonObject::array(std::string_view key, std::string_view what) {
  if (has(key) && !value_.at(key).is_array())
    throw JsonInputError(path(key), "expects an array of objects (each " + std::string(what) + "), got " + type_name(value_.at(key)));
}

void JsonObject::each(std::string_view key, std::string_view what,
                      const std::function<void(JsonObject&, std::size_t)>& f) {
  array(key, what);
  if (!has(key)) return;
  const nlohmann::json& list = value_.at(key);
  for (std::size_t i = 0; i < list.size(); ++i)
    read_element(list[i], path_, key, i, what, [&f, i](JsonObject& element) { f(element, i); });
}

void JsonObject::read_element(const nlohmann::json& element, std::string_view parent_path, std::string_view key,
                              std::size_t index, std::string_view what, const std::function<void(JsonObject&)>& read) {
  std::string path(parent_path);  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "/" + string
  path += '/';
  path += key;
  path += '/';
  path += std::to_string(index);
  JsonObject object(element, std::move(path), std::string(what));
  read(object);
  object.finish();
}

void JsonObject::finish() const {
  for (const auto& [key, value] : value_.items()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string message = "unknown key " + quote(key);
    for (const std::string& k : known_)
      if (edit_distance(k, key) <= 2) {
        message += " (did you mean " + quote(k) + "?)";
        break;
      }
    throw JsonInputError(path_, message + "; " + what_ + (known_.empty() ? " takes none" : " takes: " + joined(known_)));
  }
}

}  // namespace noether
