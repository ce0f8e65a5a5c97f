#pragma once
/// The order in which an assembly visits its units, and which units may run concurrently.
#include <functional>
#include <span>
#include <vector>

#include <noether/engine/types.hpp>

namespace noether {

/// Units are sorted by their smallest dof (stable), so that consecutive units touch neighbouring
/// unknowns and neighbouring memory; the sorted list is cut into chunks of consecutive units; and
/// the chunks are colored greedily so that chunks of one color share no unknown. An assembly runs
/// the colors one after the other, the chunks of a color concurrently, and the units of a chunk in
/// order. Every global entry thus receives its contributions in one fixed order that depends on
/// the dof lists alone, never on the number of threads.
struct AssemblySchedule {
  std::vector<Index> units;         ///< all units in visiting order
  std::vector<Index> chunk_starts;  ///< chunk k is units[chunk_starts[k] .. chunk_starts[k+1])
  std::vector<Index> chunks;        ///< chunk indices sorted by (color, chunk)
  std::vector<Index> color_starts;  ///< color c is chunks[color_starts[c] .. color_starts[c+1])
  Index num_colors() const { return static_cast<Index>(color_starts.size()) - 1; }
};

/// Units per chunk for an assembly of num_units units: num_units / 64, at least 32 and at most
/// 4096, so that there are about 64 chunks (with two or three colors, a thread of a small machine
/// still gets many chunks per color) and each is as long as that allows. A long chunk streams: it
/// sweeps the plan's arrays and the global vectors once, contiguously, while each jump to the next
/// chunk of the same color skips memory and restarts the hardware prefetch of a dozen streams, so
/// out of the caches an assembly gets faster as the chunks get longer (figures per chunk length:
/// docs/notebook.md, 'Long assembly chunks').
Index default_units_per_chunk(Index num_units);

/// Schedule for units 0 .. num_units-1 whose global unknowns are dofs_of(u), all in [0, n).
/// units_per_chunk >= 1 trades locality against parallelism. Chains and lattices need two or three
/// colors; a unit touching every unknown makes its chunk a color alone. The schedule depends on the
/// units alone, never on the number of threads.
AssemblySchedule make_assembly_schedule(Index n, Index num_units,
                                        const std::function<std::span<const Index>(Index)>& dofs_of,
                                        Index units_per_chunk);

}  // namespace noether
