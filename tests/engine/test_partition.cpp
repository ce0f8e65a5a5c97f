/// How a system divides among processes (engine/partition.hpp): blocks cut into runs along the
/// element graph whatever order they were added in, and the unknowns each process's part holds.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/engine/partition.hpp>
#include "support/half_square.hpp"

using namespace noether;

namespace {

// The links are potentials (testing::half_square): the element graph is what block_processes reads.
using testing::half_square;

/// prefix followed by k (built by appending: GCC 12 warns, wrongly, of an overlapping copy in
/// "literal" + std::to_string(k) here).
std::string numbered(std::string prefix, Index k) {
  prefix += std::to_string(k);
  return prefix;
}

/// A chain of n >= 2 blocks of two coordinates, link k joining positions k and k + 1, the blocks
/// added middle first, then the others odds before evens (the N-four-bar adds its vertical bars,
/// then its horizontal ones): a breadth-first walk from the first block added would reach the
/// chain from its middle outwards, and a cut of that order would interleave the two halves.
/// position[b]: the chain position of block b.
struct Chain {
  System system;
  std::vector<Index> position;
};

std::unique_ptr<Chain> scrambled_chain(Index n) {
  auto chain = std::make_unique<Chain>();
  std::vector<BlockId> at(static_cast<std::size_t>(n));
  const auto add = [&](Index k) {
    at[static_cast<std::size_t>(k)] = chain->system.add_block(numbered("b", k), 2);
    chain->position.push_back(k);
  };
  add(n / 2);
  for (const Index parity : {1, 0})
    for (Index k = parity; k < n; k += 2)
      if (k != n / 2) add(k);
  for (Index k = 0; k + 1 < n; ++k)
    chain->system.add(half_square(numbered("link", k), {at[static_cast<std::size_t>(k)], at[static_cast<std::size_t>(k) + 1]}, 4));
  return chain;
}

}  // namespace

TEST_CASE("block_processes cuts a chain into runs of consecutive bodies of equal size, whatever order they were added in") {
  const auto chain = scrambled_chain(12);
  CHECK(std::ranges::all_of(block_processes(chain->system, 1), [](int p) { return p == 0; }));
  for (const int ranks : {2, 3, 4}) {
    const std::vector<int> process = block_processes(chain->system, ranks);
    REQUIRE(process.size() == 12);
    // Along the chain the processes never decrease or increase (a run each, from one end), and
    // each holds 12 / ranks blocks.
    std::vector<int> along(12);
    for (std::size_t b = 0; b < process.size(); ++b) along[static_cast<std::size_t>(chain->position[b])] = process[b];
    const bool ascending = std::ranges::is_sorted(along), descending = std::ranges::is_sorted(along, std::greater<>());
    CHECK((ascending || descending));
    for (int r = 0; r < ranks; ++r) CHECK(std::ranges::count(along, r) == 12 / ranks);
    CHECK(block_processes(chain->system, ranks) == process);  // the structure alone decides
  }
  const std::vector<int> coordinates = coordinate_processes(chain->system, 2);
  REQUIRE(coordinates.size() == 24);
  for (std::size_t b = 0; b < 12; ++b) {
    const CoordinateBlock& block = chain->system.blocks()[b];
    CHECK(coordinates[static_cast<std::size_t>(block.offset)] == block_processes(chain->system, 2)[b]);
    CHECK(coordinates[static_cast<std::size_t>(block.offset) + 1] == coordinates[static_cast<std::size_t>(block.offset)]);
  }
}

TEST_CASE("divide_unknowns: an unknown of one process's terms is its own, one touched by two or by none is shared") {
  // Unknowns 0-5 coordinates, 6-7 multiplier rows. Process 0's terms: coordinates 0, 1, 2 and a
  // constraint on 0, 1 (row 6); process 1's: coordinates 2, 3, 4 and a constraint on 3, 2 (row 7).
  // Coordinate 5 no term touches.
  const std::vector<TermUnknowns> terms = {{0, {0, 1, 2}, {}}, {0, {0, 1}, {6}}, {1, {2, 3, 4}, {}}, {1, {3, 2}, {7}}};
  const std::vector<int> owner = divide_unknowns(8, terms);
  CHECK(owner == std::vector<int>{0, 0, kSharedUnknown, 1, 1, kSharedUnknown, 0, kSharedUnknown});
  // Row 7 is shared because its constraint touches the shared coordinate 2: process 1's interior
  // then holds no row that ties its bodies to the interface.
}
