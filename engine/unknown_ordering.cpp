#include <noether/engine/unknown_ordering.hpp>

#include <algorithm>

namespace noether {
namespace {

/// home[r]: the block holding the last coordinate of the constraint that owns multiplier row r.
std::vector<Index> multiplier_homes(const System& system, const std::vector<Index>& block_of) {
  std::vector<Index> home(static_cast<std::size_t>(system.num_multipliers()), 0);
  for (const Placed<Constraint>& c : system.constraints()) {
    Index last = 0;
    for (Index dof : c.dofs) last = std::max(last, block_of[static_cast<std::size_t>(dof)]);
    for (Index r = 0; r < c.element->num_equations(); ++r) home[static_cast<std::size_t>(c.first_multiplier + r)] = last;
  }
  return home;
}

}  // namespace

std::vector<Index> body_wise_positions(const System& system, std::span<const FieldKind> fields) {
  const Index d = system.num_coordinates(), m = system.num_multipliers();
  std::vector<Index> block_of(static_cast<std::size_t>(d), 0);
  for (std::size_t b = 0; b < system.blocks().size(); ++b)
    for (Index i = 0; i < system.blocks()[b].size(); ++i)
      block_of[static_cast<std::size_t>(system.blocks()[b].offset + i)] = static_cast<Index>(b);
  const std::vector<Index> home = multiplier_homes(system, block_of);
  std::vector<std::vector<Index>> rows_of_block(system.blocks().size());
  for (Index r = 0; r < m; ++r) rows_of_block[static_cast<std::size_t>(home[static_cast<std::size_t>(r)])].push_back(r);

  std::vector<Index> field_offsets{0};
  for (FieldKind f : fields) field_offsets.push_back(field_offsets.back() + (f == FieldKind::coordinates ? d : m));
  std::vector<Index> position(static_cast<std::size_t>(field_offsets.back()));
  Index next = 0;
  for (std::size_t b = 0; b < system.blocks().size(); ++b)
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const Index offset = field_offsets[f];
      if (fields[f] == FieldKind::coordinates) {
        for (Index i = 0; i < system.blocks()[b].size(); ++i)
          position[static_cast<std::size_t>(offset + system.blocks()[b].offset + i)] = next++;
      } else {
        for (Index r : rows_of_block[b]) position[static_cast<std::size_t>(offset + r)] = next++;
      }
    }
  return position;
}

}  // namespace noether
