#include <noether/apps/model/model_part.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/distribution.hpp>
#include <noether/engine/system_part.hpp>

namespace noether {
namespace {

/// The entries of each list, one flag each, all false.
std::array<std::vector<bool>, kEntryLists> no_entries(const ModelDescription& d) {
  return {std::vector<bool>(d.inertias.size()), std::vector<bool>(d.joints.size()),
          std::vector<bool>(d.constraints.size()), std::vector<bool>(d.drives.size()),
          std::vector<bool>(d.forces.size()), std::vector<bool>(d.actuators.size())};
}

}  // namespace

PartSelection select_part(const ModelDescription& description, std::span<const int> body_processes, int rank) {
  if (body_processes.size() != description.bodies.size())
    throw std::invalid_argument("select_part: " + std::to_string(body_processes.size()) + " body processes for " +
                                std::to_string(description.bodies.size()) + " bodies");
  PartSelection part{std::vector<BodyRole>(description.bodies.size(), BodyRole::absent), no_entries(description)};
  for (std::size_t b = 0; b < body_processes.size(); ++b)
    if (body_processes[b] == rank) part.bodies[b] = BodyRole::owned;
  for_each_entry_element(description, [&](EntryList list, std::size_t index, std::span<const Index> bodies) {
    const int owner = bodies.empty() ? 0 : body_processes[static_cast<std::size_t>(std::ranges::min(bodies))];
    if (owner != rank) return;
    part.entries[static_cast<std::size_t>(list)][index] = true;
    for (const Index b : bodies)
      if (part.bodies[static_cast<std::size_t>(b)] == BodyRole::absent) part.bodies[static_cast<std::size_t>(b)] = BodyRole::ghost;
  });
  return part;
}

ModelPart build_model_part(const ModelDescription& description, std::span<const int> body_processes, int rank) {
  const PartSelection selection = select_part(description, body_processes, rank);
  MechanismPart built = build_mechanism_part(description, selection, rank == 0);
  ModelPart part;
  part.initial = built.mechanism.initial_state();
  part.system = built.mechanism.release_system();
  part.constraint_keys = std::move(built.constraint_keys);
  part.probes = std::move(built.probes);
  part.invariants = std::move(built.invariants);
  Index offset = 0;
  for (std::size_t b = 0; b < description.bodies.size(); ++b) {
    if (selection.bodies[b] != BodyRole::absent) {
      part.bodies.push_back(static_cast<Index>(b));
      part.global_offsets.push_back(offset);
      part.ghosts.push_back(selection.bodies[b] == BodyRole::ghost);
    }
    offset += coordinates_of(description.bodies[b]);
  }
  part.global_coordinates = offset;
  return part;
}

PartCoordinates part_coordinates(const ModelPart& part, std::span<const int> body_processes) {
  PartCoordinates coordinates;
  const auto blocks = part.system->blocks();
  for (std::size_t k = 0; k < blocks.size(); ++k)
    for (Index i = 0; i < blocks[k].size(); ++i) {
      coordinates.global.push_back(part.global_offsets[k] + i);
      coordinates.owner.push_back(body_processes[static_cast<std::size_t>(part.bodies[k])]);
    }
  return coordinates;
}

std::vector<Index> whole_multiplier_rows(const Distribution& processes, const ModelPart& part) {
  const auto constraints = part.system->constraints();
  std::vector<SortKey> keys;
  std::vector<Index> counts;
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    keys.push_back({static_cast<double>(part.constraint_keys[k].section), static_cast<double>(part.constraint_keys[k].index)});
    counts.push_back(constraints[k].element->num_equations());
  }
  // Ranked by key; equal keys are one entry's constraints, in one part, kept in its order.
  const std::vector<Index> first_rows = number_in_key_order(processes, keys, counts).first;
  std::vector<Index> rows;
  rows.reserve(static_cast<std::size_t>(part.system->num_multipliers()));
  for (std::size_t k = 0; k < constraints.size(); ++k)
    for (Index r = 0; r < counts[k]; ++r) rows.push_back(first_rows[k] + r);
  return rows;
}

SystemPart system_part(const Distribution& processes, const ModelPart& part, std::span<const int> body_processes) {
  PartCoordinates coordinates = part_coordinates(part, body_processes);
  return make_system_part(processes, *part.system, std::move(coordinates.global), std::move(coordinates.owner),
                          part.global_coordinates);
}

}  // namespace noether
