#include <noether/apps/json_input.hpp>

#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include <noether/apps/json_reader.hpp>

namespace noether {
namespace {

/// A SAX pass that keeps, for each open object, the keys seen in it and, for each open array, the
/// index of its next element, so that the path of a repeated key can be named. Nothing is built.
class DuplicateKeyFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  /// The path of the repeated key, "" when there is none, and the key.
  const std::string& duplicate_path() const { return duplicate_path_; }
  const std::string& duplicate_key() const { return duplicate_key_; }

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    open_.push_back({true});
    return true;
  }
  bool key(string_t& key) override {
    Container& object = open_.back();
    object.key = key;
    if (object.keys.insert(key).second) return true;
    duplicate_path_ = path();
    duplicate_key_ = key;
    return false;  // stops the parse
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    open_.push_back({false});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) override { return false; }

 private:
  struct Container {
    bool object = false;
    std::unordered_set<std::string> keys{};  ///< an object's keys so far
    std::string key{};                       ///< an object's current key
    std::size_t index = 0;                   ///< an array's current element
  };

  /// A value ended: the enclosing array moves to its next element.
  bool value() {
    if (!open_.empty() && !open_.back().object) ++open_.back().index;
    return true;
  }
  bool close() {
    open_.pop_back();
    return value();
  }
  /// The JSON path of the current key or element: "/options/h", "/bodies/2/name".
  std::string path() const {
    std::string p;
    for (const Container& c : open_) p += "/" + (c.object ? c.key : std::to_string(c.index));
    return p;
  }

  std::vector<Container> open_;
  std::string duplicate_path_, duplicate_key_;
};

}  // namespace

void refuse_duplicate_keys(std::string_view text) {
  DuplicateKeyFinder finder;
  nlohmann::json::sax_parse(text.begin(), text.end(), &finder);
  if (finder.duplicate_path().empty()) return;
  throw JsonInputError(finder.duplicate_path(), "the key '" + finder.duplicate_key() +
                                                       "' appears twice in one object, and a JSON reader keeps only one "
                                                       "of its values, silently: remove one");
}

}  // namespace noether
