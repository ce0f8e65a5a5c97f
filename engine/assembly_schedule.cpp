#include <noether/engine/assembly_schedule.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace noether {
namespace {

constexpr Index colors_per_pass = 64;

/// One pass of greedy coloring over the uncolored items (color < 0), with colors first .. first + 63
/// tracked as one bit mask per unknown; an item whose unknowns already see all 64 colors waits for
/// the next pass. Returns the number of items colored.
Index color_pass(Index first, const std::vector<std::vector<Index>>& item_dofs, std::vector<std::uint64_t>& used,
                 std::vector<Index>& color) {
  std::fill(used.begin(), used.end(), 0);
  Index colored = 0;
  for (std::size_t item = 0; item < item_dofs.size(); ++item) {
    if (color[item] >= 0) continue;
    std::uint64_t taken = 0;
    for (Index dof : item_dofs[item]) taken |= used[static_cast<std::size_t>(dof)];
    if (taken == ~std::uint64_t{0}) continue;
    const int bit = std::countr_one(taken);
    color[item] = first + bit;
    for (Index dof : item_dofs[item]) used[static_cast<std::size_t>(dof)] |= std::uint64_t{1} << bit;
    ++colored;
  }
  return colored;
}

/// Greedy coloring of items in index order; fills schedule.chunks and schedule.color_starts,
/// dropping colors no item took (the gaps a partly filled pass leaves).
void color_items(Index n, const std::vector<std::vector<Index>>& item_dofs, AssemblySchedule& schedule) {
  std::vector<Index> color(item_dofs.size(), -1);
  std::vector<std::uint64_t> used(static_cast<std::size_t>(n));
  Index end = 0;
  for (auto remaining = static_cast<Index>(item_dofs.size()); remaining > 0; end += colors_per_pass)
    remaining -= color_pass(end, item_dofs, used, color);

  std::vector<Index> count(static_cast<std::size_t>(end) + 1, 0);
  for (Index c : color) ++count[static_cast<std::size_t>(c) + 1];
  schedule.color_starts = {0};
  for (std::size_t c = 1; c < count.size(); ++c)
    if (count[c] > 0) schedule.color_starts.push_back(schedule.color_starts.back() + count[c]);
  std::partial_sum(count.begin(), count.end(), count.begin());
  schedule.chunks.resize(item_dofs.size());
  for (std::size_t item = 0; item < item_dofs.size(); ++item)
    schedule.chunks[static_cast<std::size_t>(count[static_cast<std::size_t>(color[item])]++)] = static_cast<Index>(item);
}

}  // namespace

Index default_units_per_chunk(Index num_units) { return std::clamp<Index>(num_units / 64, 32, 4096); }

AssemblySchedule make_assembly_schedule(Index n, Index num_units,
                                        const std::function<std::span<const Index>(Index)>& dofs_of,
                                        Index units_per_chunk) {
  if (units_per_chunk < 1) throw std::invalid_argument("an assembly schedule needs at least one unit per chunk");
  AssemblySchedule schedule;
  std::vector<Index> smallest_dof(static_cast<std::size_t>(num_units), n);
  for (Index u = 0; u < num_units; ++u)
    for (Index dof : dofs_of(u)) smallest_dof[static_cast<std::size_t>(u)] = std::min(smallest_dof[static_cast<std::size_t>(u)], dof);
  schedule.units.resize(static_cast<std::size_t>(num_units));
  std::iota(schedule.units.begin(), schedule.units.end(), 0);
  std::stable_sort(schedule.units.begin(), schedule.units.end(), [&](Index a, Index b) {
    return smallest_dof[static_cast<std::size_t>(a)] < smallest_dof[static_cast<std::size_t>(b)];
  });

  std::vector<std::vector<Index>> chunk_dofs;
  for (Index first = 0; first < num_units; first += units_per_chunk) {
    schedule.chunk_starts.push_back(first);
    chunk_dofs.emplace_back();
    for (Index k = first; k < std::min(first + units_per_chunk, num_units); ++k) {
      const std::span<const Index> dofs = dofs_of(schedule.units[static_cast<std::size_t>(k)]);
      chunk_dofs.back().insert(chunk_dofs.back().end(), dofs.begin(), dofs.end());
    }
  }
  schedule.chunk_starts.push_back(num_units);
  color_items(n, chunk_dofs, schedule);
  return schedule;
}

}  // namespace noether
