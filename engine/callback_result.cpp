#include <noether/engine/callback_result.hpp>

#include <stdexcept>
#include <string>

#include <noether/engine/quote.hpp>

namespace noether {

void throw_wrong_result_shape(const CallbackSite& site, Index rows, Index cols, Index expected_rows, Index expected_cols,
                              bool is_vector) {
  const auto entries = [](Index n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); };
  const auto matrix = [](Index r, Index c) { return std::to_string(r) + " x " + std::to_string(c); };
  std::string message(site.kind);
  message += " ";
  message += quote(site.name);
  message += ": ";
  message += site.callback;
  message += is_vector ? " returned " + entries(rows) + ", expected " + entries(expected_rows)
                       : " returned a " + matrix(rows, cols) + " matrix, expected " + matrix(expected_rows, expected_cols);
  throw std::invalid_argument(message);
}

}  // namespace noether
