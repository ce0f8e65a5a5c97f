// A process's part of a described model is the whole model's restriction: the same blocks at the
// same global coordinates, each element built by exactly one process with the same coordinates,
// the multiplier rows in the whole's order within each part (docs/distributed.md, stage 2).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>

#include "support/every_description.hpp"

using namespace noether;

namespace {

/// An element as placed in the whole model, in global numbers.
struct GlobalPlacement {
  std::vector<Index> dofs;
  Index rows = 0, first_row = 0;
};

/// Every element of `system` by name, its dofs mapped by to_global, its rows shifted by row_offset.
template <class F>
std::map<std::string, GlobalPlacement> placements(const System& system, F&& to_global, Index row_offset) {
  std::map<std::string, GlobalPlacement> out;
  const auto add = [&](const auto& placed, Index rows, Index first_row) {
    GlobalPlacement g{{}, rows, first_row + row_offset};
    for (const Index i : placed.dofs) g.dofs.push_back(to_global(i));
    CHECK_MESSAGE(out.emplace(placed.element->name(), std::move(g)).second, placed.element->name());
  };
  for (const auto& e : system.inertias()) add(e, 0, 0);
  for (const auto& e : system.potentials()) add(e, 0, 0);
  for (const auto& e : system.constraints()) add(e, e.element->num_equations(), e.first_multiplier);
  for (const auto& e : system.dissipations()) add(e, 0, 0);
  for (const auto& e : system.external_loads()) add(e, 0, 0);
  for (const auto& e : system.actuators()) add(e, 0, 0);
  return out;
}

/// The part's blocks and initial values are the whole's, its ghosts the other processes' bodies.
void check_blocks(const Model& whole, const ModelPart& part, std::span<const int> processes, int rank) {
  const auto blocks = part.system->blocks();
  REQUIRE(blocks.size() == part.bodies.size());
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const CoordinateBlock& global = whole.system->blocks()[static_cast<std::size_t>(part.bodies[k])];
    CAPTURE(global.name);
    CHECK(blocks[k].name == global.name);
    CHECK(blocks[k].coordinate_names == global.coordinate_names);
    CHECK(part.global_offsets[k] == global.offset);
    CHECK(part.ghosts[k] == (processes[static_cast<std::size_t>(part.bodies[k])] != rank));
    CHECK(part.initial.q.segment(blocks[k].offset, blocks[k].size()) == whole.initial.q.segment(global.offset, global.size()));
    CHECK(part.initial.v.segment(blocks[k].offset, blocks[k].size()) == whole.initial.v.segment(global.offset, global.size()));
  }
  CHECK(part.global_coordinates == whole.system->num_coordinates());
}

/// Over `ranks` processes: each element in one part, on the whole's coordinates, owned by the
/// process of its smallest body; each part's rows in the whole's order, the parts' rows one after
/// the other numbering the whole's rows once each.
void check_parts(const ModelDescription& description, int ranks) {
  CAPTURE(ranks);
  const Model whole = build_model(description);
  const std::vector<int> processes = block_processes(description_coupling(description), ranks);
  const std::vector<int> coordinate_process = coordinate_processes(*whole.system, ranks);
  const auto expected = placements(*whole.system, [](Index i) { return i; }, 0);
  std::map<std::string, GlobalPlacement> built;
  std::vector<Index> row_owner_order;  // the whole's rows in the parts' numbering
  Index row_offset = 0;
  for (int rank = 0; rank < ranks; ++rank) {
    CAPTURE(rank);
    const ModelPart part = build_model_part(description, processes, rank);
    check_blocks(whole, part, processes, rank);
    const PartCoordinates coordinates = part_coordinates(part, processes);
    const std::vector<Index>& global = coordinates.global;
    for (std::size_t i = 0; i < global.size(); ++i)
      CHECK(coordinates.owner[i] == coordinate_process[static_cast<std::size_t>(global[i])]);
    const auto mine = placements(*part.system, [&](Index i) { return global[static_cast<std::size_t>(i)]; }, row_offset);
    std::vector<Index> whole_rows;
    for (const auto& [element, placement] : mine) {
      const std::string& name = element;
      CAPTURE(name);
      REQUIRE(expected.contains(name));
      CHECK(placement.dofs == expected.at(name).dofs);
      CHECK(placement.rows == expected.at(name).rows);
      if (!placement.dofs.empty())
        CHECK(coordinate_process[static_cast<std::size_t>(std::ranges::min(placement.dofs))] == rank);
      CHECK_MESSAGE(built.emplace(name, placement).second, "built by two processes");
    }
    for (const auto& c : part.system->constraints()) whole_rows.push_back(expected.at(c.element->name()).first_row);
    CHECK(std::ranges::is_sorted(whole_rows));
    row_offset += part.system->num_multipliers();
  }
  CHECK(built.size() == expected.size());
  CHECK(row_offset == whole.system->num_multipliers());
  std::vector<bool> numbered(static_cast<std::size_t>(row_offset));
  for (const auto& [name, placement] : built)
    for (Index r = 0; r < placement.rows; ++r) {
      CHECK_FALSE(numbered[static_cast<std::size_t>(placement.first_row + r)]);
      numbered[static_cast<std::size_t>(placement.first_row + r)] = true;
    }
}

/// With one process the part is the whole system, element for element in the same order.
void check_one_part(const ModelDescription& description) {
  const Model whole = build_model(description);
  const ModelPart part = build_model_part(description, std::vector<int>(description.bodies.size(), 0), 0);
  CHECK(part.system->num_coordinates() == whole.system->num_coordinates());
  CHECK(part.system->num_multipliers() == whole.system->num_multipliers());
  CHECK(std::ranges::none_of(part.ghosts, [](bool g) { return g; }));
  REQUIRE(part.system->constraints().size() == whole.system->constraints().size());
  for (std::size_t i = 0; i < whole.system->constraints().size(); ++i) {
    CHECK(part.system->constraints()[i].element->name() == whole.system->constraints()[i].element->name());
    CHECK(part.system->constraints()[i].first_multiplier == whole.system->constraints()[i].first_multiplier);
  }
  CHECK(part.initial.q == whole.initial.q);
}

void check_description(const ModelDescription& description) {
  check_one_part(description);
  for (const int ranks : {2, 3}) check_parts(description, ranks);
}

}  // namespace

TEST_CASE("every scenario's and example scene's parts over 1 to 3 processes build the whole's elements once each") {
  testing::for_every_description(check_description);
}

TEST_CASE("a chain's part over 2 processes holds half the bars and one ghost across the cut") {
  const Scenario& chain = find_scenario("chain3d");
  const ModelDescription description = chain.describe(resolve_parameters(chain, {{"n", 10}}));
  const std::vector<int> processes = block_processes(description_coupling(description), 2);
  for (int rank = 0; rank < 2; ++rank) {
    CAPTURE(rank);
    const ModelPart part = build_model_part(description, processes, rank);
    CHECK(std::ranges::count(part.ghosts, true) == (rank == 0 ? 0 : 1));  // the joint at the cut is the lower body's
    CHECK(std::ranges::count(part.ghosts, false) == 5);
    CHECK(part.system->inertias().size() == 5);
  }
}

TEST_CASE("a ghost body adds its block and initial values and none of its own elements") {
  Mechanism mechanism;
  const RigidBodyProperties ball{2.0, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity()};
  const BodyRef ghost = mechanism.add_rigid_body("ghost", ball, Pose3d{}, Twist3d{{1.0, 2.0, 3.0}, {}}, BodyElements::none);
  mechanism.add_planar_body("owned", PlanarBodyProperties{1.0, Eigen::Vector2d::Zero(), 0.1});
  CHECK(mechanism.system().block(ghost.block).size() == 12);
  CHECK(mechanism.system().num_coordinates() == 18);
  REQUIRE(mechanism.system().inertias().size() == 1);
  CHECK(mechanism.system().inertias()[0].element->name() == "owned.inertia");
  CHECK(mechanism.system().constraints().size() == 1);
  CHECK(mechanism.initial_state().v.head<3>() == Eigen::Vector3d(1.0, 2.0, 3.0));
}

TEST_CASE("select_part refuses a list of processes that is not one per body") {
  const Scenario& chain = find_scenario("chain2d");
  const ModelDescription description = chain.describe(resolve_parameters(chain, {{"n", 4}}));
  CHECK_THROWS_WITH_AS(select_part(description, std::vector<int>{0, 0}, 0), "select_part: 2 body processes for 4 bodies",
                       std::invalid_argument);
}
