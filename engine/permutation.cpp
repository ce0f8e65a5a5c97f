#include "engine/permutation.hpp"

#include <stdexcept>
#include <string>

namespace noether {

std::vector<Index> inverse_permutation(std::span<const Index> order, Index n, std::string_view what) {
  if (static_cast<Index>(order.size()) != n)
    throw std::invalid_argument(std::string(what) + " holds " + std::to_string(order.size()) + " entries, expected " +
                                std::to_string(n));
  std::vector<Index> inverse(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < n; ++k) {
    const Index i = order[static_cast<std::size_t>(k)];
    if (i < 0 || i >= n || inverse[static_cast<std::size_t>(i)] != -1)
      throw std::invalid_argument(std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(i) +
                                  " is out of range or repeated: not a permutation of 0.." + std::to_string(n - 1));
    inverse[static_cast<std::size_t>(i)] = k;
  }
  return inverse;
}

}  // namespace noether
