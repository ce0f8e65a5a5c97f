// The ghost exchange over the processes' parts of a model (build_model_part): ghosts get their
// owners' values, and shared entries the sum a whole-vector sum would give.
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/ghost_exchange.hpp>

#include "mpi/mpi_world.hpp"

using namespace noether;

namespace {

/// This process's coordinates in its part of a model: their global numbers and their owners.
struct LocalCoordinates {
  std::vector<Index> global;
  std::vector<int> owner;
  Index global_size = 0;
};

LocalCoordinates part_coordinates(const char* scenario, ParameterValues values) {
  const Scenario& s = find_scenario(scenario);
  const ModelDescription description = s.describe(resolve_parameters(s, values));
  const std::vector<int> processes = block_processes(description_coupling(description), testing::world().ranks());
  const ModelPart part = build_model_part(description, processes, testing::world().rank());
  PartCoordinates coordinates = noether::part_coordinates(part, processes);
  return {std::move(coordinates.global), std::move(coordinates.owner), part.global_coordinates};
}

/// A contribution that rounds differently in different orders of addition.
double contribution(Index global, int rank) { return std::sin(0.37 * global + 1.1 * rank) / 3.0; }

void check_exchange(const LocalCoordinates& local) {
  const int rank = testing::world().rank();
  const GhostExchange exchange(testing::world(), local.global, local.owner);
  const auto n = static_cast<Index>(local.global.size());

  Vector x(n);
  for (Index i = 0; i < n; ++i)
    x(i) = local.owner[static_cast<std::size_t>(i)] == rank ? contribution(local.global[static_cast<std::size_t>(i)], 0)
                                                            : std::numeric_limits<double>::quiet_NaN();
  exchange.update_ghosts(x);
  for (Index i = 0; i < n; ++i) CHECK(x(i) == contribution(local.global[static_cast<std::size_t>(i)], 0));

  Vector whole = Vector::Zero(local.global_size);
  for (Index i = 0; i < n; ++i) {
    x(i) = contribution(local.global[static_cast<std::size_t>(i)], rank);
    whole(local.global[static_cast<std::size_t>(i)]) = x(i);
  }
  testing::world().sum({whole.data(), static_cast<std::size_t>(whole.size())});
  // Several vectors in one exchange: each summed as alone, and x as the whole-vector sum.
  Vector y = -0.5 * x, y_alone = y;
  exchange.sum_shared(y_alone);
  std::array<VectorRef, 2> both{x, y};
  exchange.sum_shared(both);
  for (Index i = 0; i < n; ++i) CHECK(x(i) == whole(local.global[static_cast<std::size_t>(i)]));
  CHECK(y == y_alone);
  // The processes' counts against the entries held: ghosts = holders beyond the first, summed over
  // the entries; shared = the entries held more than once (each counted by its owner alone).
  Vector holders = Vector::Zero(local.global_size);
  for (Index i = 0; i < n; ++i) holders(local.global[static_cast<std::size_t>(i)]) = 1.0;
  testing::world().sum({holders.data(), static_cast<std::size_t>(holders.size())});
  std::vector<double> counts{static_cast<double>(exchange.ghost_count()), static_cast<double>(exchange.shared_count())};
  testing::world().sum(counts);
  CHECK(counts[0] > 0.0);
  CHECK(counts[0] == (holders.array() - 1.0).max(0.0).sum());
  CHECK(counts[1] == (holders.array() > 1.0).count());
}

}  // namespace

TEST_CASE("ghost exchange: a chain's parts, ghosts updated and shared entries summed in rank order") {
  check_exchange(part_coordinates("chain3d", {{"n", 13}}));
}

TEST_CASE("ghost exchange: a grid's parts") { check_exchange(part_coordinates("grid2d", {{"k", 5}})); }

TEST_CASE("ghost exchange: every entry held by every process, summed in rank order") {
  // The parts of a chain or a grid share an entry between two processes at most (measured up to
  // three processes): here every process holds all 40 entries, each owned by one of them, in an
  // order of its own, so that a sum over three processes depends on their order.
  LocalCoordinates local;
  const int ranks = testing::world().ranks(), rank = testing::world().rank();
  local.global_size = 40;
  for (Index g = 0; g < local.global_size; ++g) {
    local.global.push_back((g * 7 + 3 * rank) % local.global_size);
    local.owner.push_back(local.global.back() % ranks);
  }
  check_exchange(local);
}

TEST_CASE("ghost exchange: an owner out of range on one process is refused on every process") {
  LocalCoordinates local = part_coordinates("chain3d", {{"n", 13}});
  if (testing::world().rank() == 1) local.owner.front() = testing::world().ranks();
  // Process 1's words on every process.
  const std::string message = "ghost exchange: process 1: local unknown 0 has owner " +
                              std::to_string(testing::world().ranks()) + " of " +
                              std::to_string(testing::world().ranks()) + " processes";
  CHECK_THROWS_WITH_AS(GhostExchange(testing::world(), local.global, local.owner), message.c_str(), std::invalid_argument);
}

TEST_CASE("ghost exchange: a ghost its owner does not hold is refused on every process") {
  LocalCoordinates local = part_coordinates("chain3d", {{"n", 13}});
  if (testing::world().rank() == 0) {
    local.global.push_back(local.global_size + 7);  // no process holds it
    local.owner.push_back(1);
  }
  CHECK_THROWS_WITH_AS(GhostExchange(testing::world(), local.global, local.owner),
                       doctest::Contains("ghost exchange: process 1: process 0 holds a ghost of unknown"),
                       std::invalid_argument);
}
