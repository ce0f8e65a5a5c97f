#pragma once
/// Reading a JSON document whose every error names where it is: JSON Pointer paths
/// ("/joints/3/body_b"), what was expected and what was found; keys nobody asked for are errors.
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/scenarios/scenario.hpp>

namespace noether {

/// A document error: what() is "<path>: <what is wrong, what is expected>".
class JsonInputError : public std::invalid_argument {
 public:
  JsonInputError(const std::string& path, const std::string& message);
};

/// One JSON object at `path`. Each accessor records its key as known (present or not); finish()
/// refuses the keys of the object that no accessor named, listing the known ones ("unknown key
/// 'mas'; a planar body takes: name, type, mass, ..."). The object must outlive the reader.
class JsonObject {
 public:
  /// Throws JsonInputError unless value is an object; `what` names it in messages ("a joint").
  JsonObject(const nlohmann::json& value, std::string path, std::string what);

  const std::string& path() const { return path_; }
  /// Names the object anew for messages, once its type is known ("a revolute joint").
  void describe_as(std::string what) { what_ = std::move(what); }
  /// path() + "/" + key.
  std::string path(std::string_view key) const;
  /// Whether key is present (and records it as known).
  bool has(std::string_view key);
  /// The value of a required key; JsonInputError "missing key" naming what it holds.
  const nlohmann::json& at(std::string_view key, std::string_view meaning);

  std::string text(std::string_view key, std::string_view meaning);
  std::string text_or(std::string_view key, std::string default_value);
  /// One of `choices` (the key's text); the default when absent unless it is empty (then required).
  std::string choice(std::string_view key, std::span<const std::string_view> choices, std::string_view default_value = {});
  double number(std::string_view key, std::string_view meaning, const ParameterRange& range = ParameterRange::any());
  double number_or(std::string_view key, double default_value, const ParameterRange& range = ParameterRange::any());
  /// A whole number in [low, high]; the default when absent.
  int whole_or(std::string_view key, int default_value, int low, int high);
  bool boolean_or(std::string_view key, bool default_value);
  /// An array of `size` numbers (any size when size < 0).
  Vector vector(std::string_view key, std::string_view meaning, Index size = -1);
  /// vector(key), or an empty vector when the key is absent.
  Vector vector_or_empty(std::string_view key, Index size = -1);
  /// An array of rows x cols numbers, row by row (rows < 0: any square matrix).
  Matrix matrix(std::string_view key, std::string_view meaning, Index rows = -1, Index cols = -1);
  std::vector<std::string> texts(std::string_view key, std::string_view meaning);
  std::vector<std::string> texts_or_empty(std::string_view key);
  /// The object under key.
  JsonObject object(std::string_view key, std::string_view what);
  /// Records key as known and refuses its value unless it is an array (of `what` objects, read
  /// elsewhere: parse_json's ElementTaker); absent is fine.
  void array(std::string_view key, std::string_view what);
  /// Calls f(element, index) for each object of the array under key (absent: none).
  void each(std::string_view key, std::string_view what, const std::function<void(JsonObject&, std::size_t)>& f);
  /// Element `index` of the list under `key` of the object at `parent_path`, read: read(object)
  /// on it as a `what` object at parent_path + "/" + key + "/" + index, then finish(). Throws
  /// JsonInputError unless element is an object, and whatever read and finish throw.
  static void read_element(const nlohmann::json& element, std::string_view parent_path, std::string_view key,
                           std::size_t index, std::string_view what, const std::function<void(JsonObject&)>& read);

  /// Refuses the keys no accessor named.
  void finish() const;

 private:
  void know(std::string_view key);

  const nlohmann::json& value_;
  std::string path_, what_;
  std::vector<std::string> known_;
};

/// Reads value as a number at path (finite, in range); JsonInputError otherwise.
double json_number(const nlohmann::json& value, const std::string& path, const ParameterRange& range);
/// Reads value as an array of numbers at path (`size` of them when size >= 0).
Vector json_vector(const nlohmann::json& value, const std::string& path, Index size = -1);

/// Where parse_json hands over the elements of the document's top-level arrays as they are parsed,
/// so that a large document (a scene's bodies and joints) is never held whole: for each element of
/// the array under a top-level key that takes(key) accepts, once the element is complete,
/// take(key, index, element); the document then holds null in its place. Empty: none taken.
struct ElementTaker {
  std::function<bool(std::string_view key)> takes;
  std::function<void(std::string_view key, std::size_t index, const nlohmann::json& element)> take;
};

/// The JSON document of `text`, the elements `taker` takes left null; std::invalid_argument "<origin>: line L, column C: not valid JSON
/// (<reason>)" for a syntax error or a number no double holds (L, C: where that number starts), and
/// "<origin>: /bodies/0/mass: the key 'mass' is given twice in this object; ..." for a key an object
/// repeats (JSON leaves its meaning open; nlohmann would keep the last value).
/// An exception that take() throws ends the parse and reaches the caller as it is.
nlohmann::json parse_json(std::string_view text, const std::string& origin, const ElementTaker& taker = {});

}  // namespace noether
