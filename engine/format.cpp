#include <noether/engine/format.hpp>

#include <sstream>

namespace noether {

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace noether
