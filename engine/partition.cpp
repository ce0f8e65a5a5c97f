#include <noether/engine/partition.hpp>

#include <algorithm>

namespace noether {
namespace {

/// The blocks adjacent to each block (CSR: neighbours[starts[b] .. starts[b + 1])).
struct BlockGraph {
  std::vector<Index> starts, neighbours;
};

BlockGraph block_graph(const BlockCoupling& coupling) {
  const std::vector<std::pair<Index, Index>> joins = coupling.joins();
  BlockGraph graph;
  graph.starts.assign(coupling.block_sizes().size() + 1, 0);
  for (const auto& [a, b] : joins) ++graph.starts[static_cast<std::size_t>(a) + 1];
  for (std::size_t b = 1; b < graph.starts.size(); ++b) graph.starts[b] += graph.starts[b - 1];
  graph.neighbours.reserve(joins.size());
  for (const auto& join : joins) graph.neighbours.push_back(join.second);
  return graph;
}

/// Appends to `order` the blocks reached from `start` breadth first (marking them in `seen`),
/// neighbours in ascending order; returns the last one reached (a farthest from start).
Index breadth_first(const BlockGraph& graph, Index start, std::vector<char>& seen, std::vector<Index>& order) {
  const std::size_t begin = order.size();
  order.push_back(start);
  seen[static_cast<std::size_t>(start)] = 1;
  for (std::size_t k = begin; k < order.size(); ++k) {
    const auto b = static_cast<std::size_t>(order[k]);
    for (Index n = graph.starts[b]; n < graph.starts[b + 1]; ++n) {
      const Index next = graph.neighbours[static_cast<std::size_t>(n)];
      if (!seen[static_cast<std::size_t>(next)]) {
        seen[static_cast<std::size_t>(next)] = 1;
        order.push_back(next);
      }
    }
  }
  return order.back();
}

/// The blocks, each connected part breadth first from the block farthest from its first block.
std::vector<Index> block_order(const BlockGraph& graph, Index blocks) {
  std::vector<Index> order, probe;
  std::vector<char> seen(static_cast<std::size_t>(blocks), 0), probe_seen(static_cast<std::size_t>(blocks), 0);
  order.reserve(static_cast<std::size_t>(blocks));
  for (Index b = 0; b < blocks; ++b) {
    if (seen[static_cast<std::size_t>(b)]) continue;
    probe.clear();
    const Index far = breadth_first(graph, b, probe_seen, probe);
    breadth_first(graph, far, seen, order);
  }
  return order;
}

}  // namespace

void BlockCoupling::add_element(std::span<const Index> blocks) {
  for (const Index b : blocks)
    if (b != blocks.front()) {
      joins_.emplace_back(blocks.front(), b);
      joins_.emplace_back(b, blocks.front());
    }
}

std::vector<std::pair<Index, Index>> BlockCoupling::joins() const {
  std::vector<std::pair<Index, Index>> joins = joins_;
  std::ranges::sort(joins);
  joins.erase(std::unique(joins.begin(), joins.end()), joins.end());
  return joins;
}

BlockCoupling block_coupling(const System& system) {
  BlockCoupling coupling;
  std::vector<Index> block_of(static_cast<std::size_t>(system.num_coordinates()));
  for (std::size_t b = 0; b < system.blocks().size(); ++b) {
    const CoordinateBlock& block = system.blocks()[b];
    coupling.add_block(block.size());
    std::fill_n(block_of.begin() + block.offset, block.size(), static_cast<Index>(b));
  }
  std::vector<Index> blocks;
  const auto add = [&](const std::vector<Index>& dofs) {
    blocks.clear();
    for (const Index dof : dofs)
      if (const Index b = block_of[static_cast<std::size_t>(dof)]; blocks.empty() || blocks.back() != b) blocks.push_back(b);
    coupling.add_element(blocks);
  };
  for (const auto& e : system.inertias()) add(e.dofs);
  for (const auto& e : system.potentials()) add(e.dofs);
  for (const auto& e : system.constraints()) add(e.dofs);
  for (const auto& e : system.dissipations()) add(e.dofs);
  for (const auto& e : system.external_loads()) add(e.dofs);
  for (const auto& e : system.actuators()) add(e.dofs);
  return coupling;
}

std::vector<int> block_processes(const BlockCoupling& coupling, int ranks) {
  const std::span<const Index> sizes = coupling.block_sizes();
  const auto blocks = static_cast<Index>(sizes.size());
  std::vector<int> process(sizes.size(), 0);
  Index d = 0;
  for (const Index size : sizes) d += size;
  if (ranks <= 1 || d == 0) return process;
  Index before = 0;  // coordinates of the blocks earlier in the order
  for (const Index b : block_order(block_graph(coupling), blocks)) {
    const Index size = sizes[static_cast<std::size_t>(b)];
    // The process whose run of coordinates holds the block's middle.
    const Index middle = before + size / 2;
    process[static_cast<std::size_t>(b)] = static_cast<int>(std::min<Index>(middle * ranks / d, ranks - 1));
    before += size;
  }
  return process;
}

std::vector<int> block_processes(const System& system, int ranks) {
  if (ranks <= 1) return std::vector<int>(system.blocks().size(), 0);
  return block_processes(block_coupling(system), ranks);
}

std::vector<int> coordinate_processes(const System& system, int ranks) {
  const std::vector<int> process = block_processes(system, ranks);
  std::vector<int> out(static_cast<std::size_t>(system.num_coordinates()));
  for (std::size_t b = 0; b < process.size(); ++b) {
    const CoordinateBlock& block = system.blocks()[b];
    std::fill_n(out.begin() + block.offset, block.size(), process[b]);
  }
  return out;
}

std::vector<int> divide_unknowns(Index n, std::span<const TermUnknowns> terms) {
  constexpr int untouched = -2;
  std::vector<int> owner(static_cast<std::size_t>(n), untouched);
  const auto touch = [&](Index i, int rank) {
    int& o = owner[static_cast<std::size_t>(i)];
    o = o == untouched || o == rank ? rank : kSharedUnknown;
  };
  for (const TermUnknowns& t : terms) {
    for (Index i : t.coordinates) touch(i, t.owner);
    for (Index i : t.multipliers) touch(i, t.owner);
  }
  const auto shared = [&](Index i) { return owner[static_cast<std::size_t>(i)] == kSharedUnknown; };
  for (const TermUnknowns& t : terms)
    if (std::ranges::any_of(t.coordinates, shared))
      for (Index i : t.multipliers) owner[static_cast<std::size_t>(i)] = kSharedUnknown;
  std::ranges::replace(owner, untouched, kSharedUnknown);
  return owner;
}

}  // namespace noether
