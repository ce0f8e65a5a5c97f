#pragma once
/// The entries of a vector that several processes hold (docs/distributed.md, "The partitioned
/// model", stage 3): each process holds the unknowns it owns and ghosts of other processes'
/// unknowns that its terms touch. After assembly a ghost's contributions go to the owner, which
/// adds them to its own, and the owner's total comes back to every ghost of it; after a solve the
/// owners' values go to the ghosts. One message to and from each neighbouring process per call.
#include <span>
#include <vector>

#include <noether/engine/distribution.hpp>
#include <noether/engine/types.hpp>

namespace noether {

class GhostExchange {
 public:
  /// A process's local unknowns: global[i] the global number of local unknown i, owner[i] the
  /// process that owns it (this process: owned, another: a ghost). The global numbers are
  /// distinct, and every ghost's is owned by its owner. Collective: every process makes its
  /// exchange together, in the same order among its collective calls (two sums and one exchange).
  /// Throws std::invalid_argument, on the process at fault, for sizes that differ or an owner
  /// outside 0 .. ranks() - 1; a ghost its owner does not hold is a std::invalid_argument there.
  GhostExchange(const Distribution& processes, std::span<const Index> global, std::span<const int> owner);

  /// Every ghost's entry of x (local numbering) := its owner's. Collective.
  void update_ghosts(VectorRef x) const;
  /// The same for several vectors of the local numbering at once (one message each way).
  void update_ghosts(std::span<VectorRef> xs) const;

  /// Every entry that several processes hold := the sum of their entries, added in the order of
  /// the ranks, as Distribution::sum adds (so the same bits as a sum of whole vectors in which each
  /// process holds its entries and zeros elsewhere); on every process that holds it. Collective.
  void sum_shared(VectorRef x) const;
  /// The same for several vectors of the local numbering at once: each vector's entries added as
  /// sum_shared(x) adds them, in one message to and from each neighbour.
  void sum_shared(std::span<VectorRef> xs) const;

  /// The number of ghosts this process holds, and of its owned entries others hold as ghosts.
  Index ghost_count() const;
  Index shared_count() const;
  /// Per local entry (`size` of them, the local numbering's): whether another process holds it too
  /// (a ghost here, or an owned entry some process holds a ghost of).
  std::vector<bool> held_elsewhere(Index size) const;

 private:
  /// The entries one neighbouring process and this one share, in increasing global number:
  /// local indices here, and a buffer of as many values.
  struct Link {
    int process;
    std::vector<Index> local;
    mutable std::vector<double> buffer;
    std::vector<Index> slot;  ///< shared_ links: each entry's place in slots_
  };
  /// The owner's side: the local index of each global number the other processes asked for (in
  /// shared_'s buffers), and the slots of the entries shared. Collective (one sum).
  void resolve_shared(std::span<const Index> global, std::span<const int> owner);
  /// Sends each of out_links' buffers to its process and fills in_links' from theirs, `width`
  /// values per entry (the buffers resized to hold them).
  void swap_buffers(const std::vector<Link>& out_links, const std::vector<Link>& in_links, std::size_t width) const;
  /// sum_shared's totals of one vector, x, whose neighbours' values are the v-th run of the links' buffers.
  void add_in_rank_order(VectorRef x, std::size_t v) const;

  const Distribution& processes_;
  std::vector<Link> ghosts_;  ///< per owner of ghosts here, in increasing process order
  std::vector<Link> shared_;  ///< per process holding ghosts of entries owned here, in increasing process order
  std::vector<Index> slots_;  ///< the owned entries some process holds a ghost of, local indices, sorted
  mutable std::vector<double> totals_;  ///< sum_shared's scratch, one per slot
  mutable std::vector<char> started_;
};

}  // namespace noether
