/// A process's part of a system in the whole (system_part.hpp).
#include <noether/engine/system_part.hpp>

#include <numeric>
#include <stdexcept>
#include <string>

namespace noether {

SystemPart make_system_part(const Distribution& processes, const System& system, std::vector<Index> coordinate_numbers,
                            std::vector<int> coordinate_owners, Index whole_coordinates) {
  const auto d = static_cast<std::size_t>(system.num_coordinates());
  if (coordinate_numbers.size() != d || coordinate_owners.size() != d)
    throw std::invalid_argument("make_system_part: the part has " + std::to_string(d) + " coordinates, given " +
                                std::to_string(coordinate_numbers.size()) + " numbers and " +
                                std::to_string(coordinate_owners.size()) + " owners");
  const std::vector<Index> rows = counts_of_processes(processes, system.num_multipliers());
  const auto lower = rows.begin() + processes.rank();
  return {std::move(coordinate_numbers), std::move(coordinate_owners), whole_coordinates,
          std::accumulate(rows.begin(), rows.end(), Index{0}), std::accumulate(rows.begin(), lower, Index{0})};
}

PartUnknowns part_unknowns(const TermLayout& layout, const SystemPart& part, int rank) {
  const Index n = layout.size();
  std::vector<Index> whole_offset;  // per field: the whole's first number of the field
  Index offset = 0;
  for (int f = 0; f < layout.num_fields(); ++f) {
    whole_offset.push_back(offset);
    offset += layout.field_kind(f) == FieldKind::coordinates ? part.whole_coordinates : part.whole_multipliers;
  }
  PartUnknowns out{std::vector<Index>(static_cast<std::size_t>(n)), std::vector<int>(static_cast<std::size_t>(n))};
  for (Index i = 0; i < n; ++i) {
    const auto [field, index] = layout.field_of(layout.natural_index(i));
    const auto k = static_cast<std::size_t>(index);
    const bool coordinate = layout.field_kind(field) == FieldKind::coordinates;
    out.global[static_cast<std::size_t>(i)] =
        whole_offset[static_cast<std::size_t>(field)] + (coordinate ? part.coordinate_numbers[k] : part.first_multiplier + index);
    out.owner[static_cast<std::size_t>(i)] = coordinate ? part.coordinate_owners[k] : rank;
  }
  return out;
}

std::vector<int> divide_part_unknowns(const CscPattern& pattern, const std::vector<bool>& shared,
                                      const std::vector<bool>& multiplier, int rank) {
  std::vector<int> owner(static_cast<std::size_t>(pattern.n), rank);
  for (Index j = 0; j < pattern.n; ++j) {
    const auto col = static_cast<std::size_t>(j);
    if (shared[col]) owner[col] = kSharedUnknown;
    for (Index k = pattern.column_starts[col]; k < pattern.column_starts[col + 1]; ++k) {
      const auto row = static_cast<std::size_t>(pattern.row_indices[static_cast<std::size_t>(k)]);
      if (multiplier[col] && shared[row]) owner[col] = kSharedUnknown;
      if (multiplier[row] && shared[col]) owner[row] = kSharedUnknown;
    }
  }
  return owner;
}

}  // namespace noether
