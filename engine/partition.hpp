#pragma once
/// How a system divides among the processes that assemble it together (engine/distribution.hpp):
/// which process owns each coordinate block and so each term, and where each unknown of the
/// Newton system then lies among the processes' matrix parts.
#include <span>
#include <utility>
#include <vector>

#include <noether/engine/distribution.hpp>
#include <noether/engine/system.hpp>

namespace noether {

/// The blocks of a system as the partition reads them, given as data so that a model's cut can be
/// known before the model is built (from its description): each block's number of coordinates,
/// and for each element the blocks it touches, the block of its first coordinate first.
class BlockCoupling {
 public:
  /// Adds a block of `size` coordinates; blocks are numbered in the order they are added.
  void add_block(Index size) { sizes_.push_back(size); }
  /// Adds an element touching `blocks` (each added before; blocks[0] the block of its first
  /// coordinate); an element of no block couples nothing.
  void add_element(std::span<const Index> blocks);
  std::span<const Index> block_sizes() const { return sizes_; }
  /// The pairs (a, b) and (b, a) of the blocks that an element joins: its first block and each
  /// other block it touches; sorted, each once.
  std::vector<std::pair<Index, Index>> joins() const;

 private:
  std::vector<Index> sizes_;
  std::vector<std::pair<Index, Index>> joins_;  ///< both directions, as added
};

/// The coupling of system's blocks (blocks() order) by its elements.
BlockCoupling block_coupling(const System& system);

/// The process of each block of `coupling` over `ranks` >= 1 processes: block_processes(system, ...)
/// of the system it describes.
std::vector<int> block_processes(const BlockCoupling& coupling, int ranks);

/// The process of each coordinate block of `system` (blocks() order) over `ranks` >= 1 processes.
/// The blocks are visited breadth first through the graph in which an element joins the blocks
/// it touches, starting each connected part at the block farthest from its first block (an end of
/// a chain, of a row of loops, a corner of a grid), and that order is cut into `ranks` runs of
/// about equal numbers of coordinates. So a chain or a tree is cut between consecutive bodies and
/// a grid along a front of bodies, whatever order the blocks were added in, and a process's terms
/// touch few blocks of another's. Depends on the system's structure alone: every process computes
/// the same.
std::vector<int> block_processes(const System& system, int ranks);

/// The process of each coordinate: its block's (block_processes), d entries.
std::vector<int> coordinate_processes(const System& system, int ranks);

/// A term as divide_unknowns reads it: the process that owns it and its unknowns (Newton
/// positions), its coordinates' apart from its multiplier rows'.
struct TermUnknowns {
  int owner = 0;
  std::vector<Index> coordinates, multipliers;
};

/// Where each of n unknowns lies among the processes' matrix parts: owner[i] = r when the terms of
/// process r alone touch unknown i, so that row and column i of the matrix come from r's part
/// alone (r's interior); kSharedUnknown when several processes' terms touch it or none does, and
/// for the multiplier rows of a term with a shared coordinate. That last rule keeps each
/// process's interior a mechanism of its own: its constraints hold its bodies to each other and
/// to the ground only, never to the fixed interface, which would make a closed loop of every
/// process's part (over-determined, or singular where the loop is stretched straight). A linear
/// solver that factors each process's interior where it lies (SchurSolver) reads it.
std::vector<int> divide_unknowns(Index n, std::span<const TermUnknowns> terms);

}  // namespace noether
