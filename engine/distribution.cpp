#include <noether/engine/distribution.hpp>

#include <algorithm>

namespace noether {

int term_owner(Index first, Index coordinates, int ranks) {
  if (coordinates <= 0) return 0;
  // The largest r with floor(r d / R) <= first; first < d, so r <= R - 1.
  const Index r = ((first + 1) * static_cast<Index>(ranks) - 1) / coordinates;
  return static_cast<int>(std::min<Index>(r, ranks - 1));
}

}  // namespace noether
