#include <noether/solvers/linear/nested_dissection.hpp>

#include <stdexcept>
#include <string>

#include <metis.h>

namespace noether {
namespace {

static_assert(sizeof(idx_t) == sizeof(Index), "METIS must be built with the engine's index width (IDXTYPEWIDTH 32)");

/// The seed of METIS's randomized matching and refinement, fixed so that a pattern has one order.
constexpr idx_t kMetisSeed = 42;

/// The adjacency of A + A^T without the diagonal, as METIS takes a graph: the neighbours of vertex
/// i are adjacency[starts[i] .. starts[i + 1]), each once.
struct Graph {
  std::vector<idx_t> starts, adjacency;
};

/// Checks the arrays first (std::invalid_argument naming the entry), as METIS does not.
Graph symmetric_graph(Index n, std::span<const Index> column_starts, std::span<const Index> row_indices) {
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  if (n < 0 || column_starts.size() != at(n) + 1)
    throw std::invalid_argument("nested_dissection_order: column_starts must have n + 1 = " + std::to_string(n + 1) +
                                " entries, got " + std::to_string(column_starts.size()));
  if (column_starts[0] != 0 || column_starts[at(n)] != static_cast<Index>(row_indices.size()))
    throw std::invalid_argument("nested_dissection_order: column_starts must run from 0 to the " +
                                std::to_string(row_indices.size()) + " row indices");
  std::vector<Index> degree(at(n), 0);
  for (Index j = 0; j < n; ++j) {
    if (column_starts[at(j + 1)] < column_starts[at(j)])
      throw std::invalid_argument("nested_dissection_order: column_starts decreases at column " + std::to_string(j));
    for (Index s = column_starts[at(j)]; s < column_starts[at(j + 1)]; ++s) {
      const Index i = row_indices[at(s)];
      if (i < 0 || i >= n)
        throw std::invalid_argument("nested_dissection_order: row index " + std::to_string(i) + " in column " +
                                    std::to_string(j) + " is outside 0.." + std::to_string(n - 1));
      if (i != j) ++degree[at(i)], ++degree[at(j)];
    }
  }
  // Both (i, j) and (j, i) of every off-diagonal entry, then duplicates dropped within each list.
  Graph g;
  g.starts.assign(at(n) + 1, 0);
  for (Index i = 0; i < n; ++i) g.starts[at(i + 1)] = g.starts[at(i)] + degree[at(i)];
  std::vector<idx_t> fill(g.starts.begin(), g.starts.end() - 1);
  g.adjacency.resize(at(g.starts[at(n)]));
  for (Index j = 0; j < n; ++j)
    for (Index s = column_starts[at(j)]; s < column_starts[at(j + 1)]; ++s) {
      const Index i = row_indices[at(s)];
      if (i == j) continue;
      g.adjacency[at(fill[at(i)]++)] = j;
      g.adjacency[at(fill[at(j)]++)] = i;
    }
  std::vector<Index> last_seen(at(n), -1);
  idx_t kept = 0;
  for (Index i = 0; i < n; ++i) {
    const idx_t begin = g.starts[at(i)], end = g.starts[at(i + 1)];
    g.starts[at(i)] = kept;
    for (idx_t s = begin; s < end; ++s) {
      const idx_t k = g.adjacency[at(s)];
      if (last_seen[at(k)] == i) continue;
      last_seen[at(k)] = i;
      g.adjacency[at(kept++)] = k;
    }
  }
  g.starts[at(n)] = kept;
  g.adjacency.resize(at(kept));
  return g;
}

std::string metis_status(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "erroneous input";
    case METIS_ERROR_MEMORY: return "out of memory";
    default: return "METIS status " + std::to_string(status);
  }
}

}  // namespace

std::vector<Index> nested_dissection_order(Index n, std::span<const Index> column_starts,
                                           std::span<const Index> row_indices) {
  Graph g = symmetric_graph(n, column_starts, row_indices);
  std::vector<Index> order(static_cast<std::size_t>(n));
  // METIS has nothing to dissect without edges (and older releases fail on such graphs): any
  // order is as good, the given one is kept.
  if (g.adjacency.empty()) {
    for (Index k = 0; k < n; ++k) order[static_cast<std::size_t>(k)] = k;
    return order;
  }
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = kMetisSeed;
  options[METIS_OPTION_NUMBERING] = 0;
  idx_t vertices = n;
  std::vector<idx_t> position(static_cast<std::size_t>(n));
  // METIS_NodeND's perm is the vertex eliminated at each position, its iperm the position of each
  // vertex: the other reading fills in more than the band on a grid
  // (tests/solvers/test_nested_dissection.cpp checks which is which).
  const int status = METIS_NodeND(&vertices, g.starts.data(), g.adjacency.data(), nullptr, options, order.data(),
                                  position.data());
  if (status != METIS_OK)
    throw std::runtime_error("nested_dissection_order: METIS_NodeND failed on the " + std::to_string(n) +
                             " x " + std::to_string(n) + " pattern: " + metis_status(status));
  return order;
}

std::vector<Index> nested_dissection_order(const CscPattern& pattern) {
  return nested_dissection_order(pattern.n, pattern.column_starts, pattern.row_indices);
}

std::vector<Index> elimination_positions(std::span<const Index> order) {
  std::vector<Index> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[static_cast<std::size_t>(order[k])] = static_cast<Index>(k);
  return position;
}

}  // namespace noether
