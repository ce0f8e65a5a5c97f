#include <noether/engine/format.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
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

bool is_subnormal(double value) { return std::fpclassify(value) == FP_SUBNORMAL; }

std::string subnormal_refusal(double value, bool zero_accepted) {
  return "must be a normal number, at least " + format_exact(std::numeric_limits<double>::min()) +
         (value < 0.0 ? " in magnitude" : "") + (zero_accepted ? " (or 0)" : "") + ", got " + format_exact(value) +
         " (a subnormal value keeps too few digits for the equations)";
}

bool beyond_double_range(double value) { return !(std::abs(value) < kLargestMagnitude); }

std::string beyond_range_text() {
  return "beyond the range of double precision (the squares of such values overflow)";
}

std::string overflow_refusal(double value) {
  return "must be below " + format_number(kLargestMagnitude) + " in magnitude, got " + format_exact(value) + ": " +
         beyond_range_text();
}

}  // namespace noether
