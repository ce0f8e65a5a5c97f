#pragma once
/// What the measurement programs share: the NAME:NUMBER arguments of noether_composition_errors
/// and noether_adaptive_step_gain, and the number formats of their tables and of
/// noether_simbody_work_precision's progress lines.
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace noether::measurement {

/// "chain2d:100" as ("chain2d", 100), "livens-em4:4" as ("livens-em4", 4); throws
/// std::invalid_argument naming the option and the text otherwise.
inline std::pair<std::string, double> parse_name_and_number(const std::string& option, const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw std::invalid_argument(option + " '" + text + "': expected NAME:NUMBER");
  try {
    return {text.substr(0, colon), std::stod(text.substr(colon + 1))};
  } catch (const std::logic_error&) {
    throw std::invalid_argument(option + " '" + text + "': the part after ':' is not a number");
  }
}

/// value with `digits` digits after the point, in scientific ("1.23e-05") or fixed ("1.23") notation.
inline std::string scientific(double value, int digits = 2) {
  std::ostringstream s;
  s << std::scientific << std::setprecision(digits) << value;
  return s.str();
}
inline std::string fixed(double value, int digits = 2) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

}  // namespace noether::measurement
