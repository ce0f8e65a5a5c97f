#pragma once
// Comparisons of two readings of one model over parts: outlines element for element, and parts
// item for item (by name), number for number.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_part.hpp>

namespace noether::testing {

inline void check_same_outline(const DescriptionOutline& streamed, const DescriptionOutline& read) {
  CHECK(std::ranges::equal(streamed.block_sizes(), read.block_sizes()));
  REQUIRE(streamed.num_elements() == read.num_elements());
  for (std::size_t e = 0; e < read.num_elements(); ++e) {
    CAPTURE(e);
    CHECK(streamed.list(e) == read.list(e));
    CHECK(streamed.entry(e) == read.entry(e));
    CHECK(std::ranges::equal(streamed.bodies(e), read.bodies(e)));
  }
}

/// The two parts hold the same items (bodies and joints by name, every list by size), roles,
/// numbers and flags.
inline void check_same_part(const PartDescription& read, const PartDescription& copied) {
  const ModelDescription &g = read.description, &c = copied.description;
  REQUIRE(g.bodies.size() == c.bodies.size());
  for (std::size_t b = 0; b < c.bodies.size(); ++b) CHECK(name_of(g.bodies[b]) == name_of(c.bodies[b]));
  CHECK(read.roles == copied.roles);
  CHECK(read.body_numbers == copied.body_numbers);
  CHECK(read.body_offsets == copied.body_offsets);
  CHECK(read.whole_coordinates == copied.whole_coordinates);
  REQUIRE(g.joints.size() == c.joints.size());
  for (std::size_t j = 0; j < c.joints.size(); ++j) CHECK(g.joints[j].name == c.joints[j].name);
  CHECK(g.inertias.size() == c.inertias.size());
  CHECK(g.constraints.size() == c.constraints.size());
  CHECK(g.drives.size() == c.drives.size());
  CHECK(g.forces.size() == c.forces.size());
  CHECK(g.actuators.size() == c.actuators.size());
  CHECK(g.probes.size() == c.probes.size());
  CHECK(g.invariants.size() == c.invariants.size());
  CHECK(g.conserved_momenta.angular == c.conserved_momenta.angular);
  CHECK(read.entry_numbers == copied.entry_numbers);
  CHECK(read.builds == copied.builds);
}

/// Over 1, 2 and 3 processes, each process's part of `outline` (the outline of `whole`) as
/// part(selection) gives it is the part copied out of the whole description (check_same_part), and
/// built, the whole's part built: the same blocks at the same whole coordinates, the same
/// constraint keys and initial state (tests/apps/test_model_part.cpp checks those against the
/// whole model).
template <class Part>
void check_parts_of_whole(const DescriptionOutline& outline, const ModelDescription& whole, Part&& part) {
  for (const int ranks : {1, 2, 3}) {
    CAPTURE(ranks);
    const std::vector<int> processes = block_processes(outline.coupling(), ranks);
    for (int rank = 0; rank < ranks; ++rank) {
      CAPTURE(rank);
      const PartSelection selection = select_part(outline, processes, rank);
      const PartDescription read = part(selection);
      check_same_part(read, part_description(whole, selection));
      const ModelPart from_part = build_model_part(read, rank);
      const ModelPart from_whole = build_model_part(whole, processes, rank);
      CHECK(from_part.global_offsets == from_whole.global_offsets);
      CHECK(from_part.constraint_keys == from_whole.constraint_keys);
      CHECK(from_part.initial.q == from_whole.initial.q);
      CHECK(from_part.initial.v == from_whole.initial.v);
      CHECK(from_part.system->num_multipliers() == from_whole.system->num_multipliers());
    }
  }
}

}  // namespace noether::testing
