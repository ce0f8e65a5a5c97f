#include <noether/apps/model/model_part.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/distribution.hpp>
#include <noether/engine/quote.hpp>
#include <noether/engine/system_part.hpp>

namespace noether {
namespace {

/// Whether `entries` (ascending) holds `index`.
bool holds(const std::vector<Index>& entries, Index index) { return std::ranges::binary_search(entries, index); }

/// Copies entry i of `from` (a list of the whole description) into `to` where `selection` keeps
/// it (a gravity entry always), with its number and whether it is built here.
template <class Entries>
void keep_entries(EntryList list, const Entries& from, Entries& to, const PartSelection& selection, PartDescription& part) {
  const auto l = static_cast<std::size_t>(list);
  for (std::size_t i = 0; i < from.size(); ++i) {
    const auto index = static_cast<Index>(i);
    bool gravity = false;
    if constexpr (std::is_same_v<Entries, std::vector<ForceDescription>>)
      gravity = std::holds_alternative<GravityDescription>(from[i]);
    if (!gravity && !holds(selection.described[l], index)) continue;
    to.push_back(from[i]);
    part.entry_numbers[l].push_back(index);
    part.builds[l].push_back(gravity || holds(selection.built[l], index));
  }
}

}  // namespace

void require_listed_bodies(const BodyIndex& bodies, const ModelDescription& model_wide) {
  const auto require = [&](const char* section, std::size_t index, const std::string& name) {
    if (!bodies.contains(name)) throw ModelDescriptionError(section, index, "body", "no body named " + quote(name));
  };
  for (std::size_t i = 0; i < model_wide.probes.size(); ++i)
    if (const auto* point = std::get_if<PointProbeDescription>(&model_wide.probes[i])) require("probes", i, point->body);
  for (std::size_t i = 0; i < model_wide.invariants.size(); ++i)
    for (const std::string& name : model_wide.invariants[i].bodies) require("invariants", i, name);
}

PartSelection select_part(const DescriptionOutline& outline, std::span<const int> body_processes, int rank) {
  const std::span<const Index> sizes = outline.block_sizes();
  if (body_processes.size() != sizes.size())
    throw std::invalid_argument("select_part: " + std::to_string(body_processes.size()) + " body processes for " +
                                std::to_string(sizes.size()) + " bodies");
  PartSelection part{std::vector<BodyRole>(sizes.size(), BodyRole::absent), {}, {}};
  for (std::size_t b = 0; b < body_processes.size(); ++b)
    if (body_processes[b] == rank) part.bodies[b] = BodyRole::owned;
  for (std::size_t e = 0; e < outline.num_elements(); ++e) {
    const std::span<const Index> bodies = outline.bodies(e);
    const auto list = static_cast<std::size_t>(outline.list(e));
    const int owner = bodies.empty() ? 0 : body_processes[static_cast<std::size_t>(std::ranges::min(bodies))];
    const bool touches_own = std::ranges::any_of(bodies, [&](Index b) { return body_processes[static_cast<std::size_t>(b)] == rank; });
    if (owner == rank || touches_own) part.described[list].push_back(outline.entry(e));
    if (owner != rank) continue;
    part.built[list].push_back(outline.entry(e));
    for (const Index b : bodies)
      if (part.bodies[static_cast<std::size_t>(b)] == BodyRole::absent) part.bodies[static_cast<std::size_t>(b)] = BodyRole::ghost;
  }
  return part;
}

PartSelection select_part(const ModelDescription& description, std::span<const int> body_processes, int rank) {
  return select_part(outline_of(description), body_processes, rank);
}

PartDescription part_description(const ModelDescription& d, const PartSelection& selection) {
  if (!d.probes.empty() || !d.invariants.empty()) require_listed_bodies(BodyIndex(d.bodies), d);
  PartDescription part;
  ModelDescription& kept = part.description;
  Index offset = 0;
  for (std::size_t b = 0; b < d.bodies.size(); ++b) {
    if (selection.bodies[b] != BodyRole::absent) {
      kept.bodies.push_back(d.bodies[b]);
      part.roles.push_back(selection.bodies[b]);
      part.body_numbers.push_back(static_cast<Index>(b));
      part.body_offsets.push_back(offset);
    }
    offset += coordinates_of(d.bodies[b]);
  }
  part.whole_coordinates = offset;
  keep_entries(EntryList::inertias, d.inertias, kept.inertias, selection, part);
  keep_entries(EntryList::joints, d.joints, kept.joints, selection, part);
  keep_entries(EntryList::constraints, d.constraints, kept.constraints, selection, part);
  keep_entries(EntryList::drives, d.drives, kept.drives, selection, part);
  keep_entries(EntryList::forces, d.forces, kept.forces, selection, part);
  keep_entries(EntryList::actuators, d.actuators, kept.actuators, selection, part);
  kept.probes = d.probes;
  kept.invariants = d.invariants;
  kept.conserved_momenta = d.conserved_momenta;
  return part;
}

ModelPart build_model_part(const PartDescription& described, int rank) {
  MechanismPart built = build_mechanism_part(described, rank == 0);
  ModelPart part;
  part.initial = built.mechanism.initial_state();
  part.system = built.mechanism.release_system();
  part.constraint_keys = std::move(built.constraint_keys);
  part.probes = std::move(built.probes);
  part.invariants = std::move(built.invariants);
  part.bodies = described.body_numbers;
  part.global_offsets = described.body_offsets;
  for (const BodyRole role : described.roles) part.ghosts.push_back(role == BodyRole::ghost);
  part.global_coordinates = described.whole_coordinates;
  return part;
}

ModelPart build_model_part(const ModelDescription& description, std::span<const int> body_processes, int rank) {
  return build_model_part(part_description(description, select_part(description, body_processes, rank)), rank);
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
