#include <noether/engine/format.hpp>

#include <array>
#include <charconv>
#include <sstream>

namespace noether {

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string format_exact(double value) {
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  return std::string(buffer.data(), end);
}

}  // namespace noether
