#pragma once
/// How one process's part of a system sits in the whole, for a run whose processes each hold a
/// part (docs/distributed.md, "The partitioned model"): a part is a System of the process's own
/// bodies, ghosts of other processes' bodies that its elements touch (coordinate blocks without
/// elements of their own), and its own elements; its multiplier rows are its own constraints'.
/// The whole's unknowns are numbered field by field as a scheme's natural order numbers them, each
/// coordinate by its number in the whole system and each multiplier row after the lower
/// processes' rows.
#include <span>
#include <vector>

#include <noether/engine/distribution.hpp>
#include <noether/engine/scheme_assembly.hpp>
#include <noether/engine/types.hpp>

namespace noether {

struct SystemPart {
  /// Per coordinate of the part's System (its order, d entries): its number in the whole system
  /// and the process that owns it (this one; for a ghost, its body's owner).
  std::vector<Index> coordinate_numbers;
  std::vector<int> coordinate_owners;
  Index whole_coordinates = 0;  ///< the whole system's d
  Index whole_multipliers = 0;  ///< the whole system's m: the parts' rows summed
  Index first_multiplier = 0;   ///< the whole's number of the part's first row: the lower processes' rows
};

/// The part of `system` given its coordinates' whole numbers and owners (d entries each, moved in)
/// and the whole's d; its rows are numbered after the lower processes'. Collective (one
/// Distribution::sum). Throws std::invalid_argument for sizes that differ from system's.
SystemPart make_system_part(const Distribution& processes, const System& system, std::vector<Index> coordinate_numbers,
                            std::vector<int> coordinate_owners, Index whole_coordinates);

/// Each unknown of a scheme's Newton system over a part (layout's Newton order): its number in the
/// whole system's (fields after one another, each of the whole's size: d or m) and its owner (a
/// coordinate's, or for a multiplier row this process, `rank`).
struct PartUnknowns {
  std::vector<Index> global;
  std::vector<int> owner;
};
PartUnknowns part_unknowns(const TermLayout& layout, const SystemPart& part, int rank);

/// Where a part's Newton unknowns lie for a linear solver over the parts (UnknownPlacement::owners):
/// kSharedUnknown for the unknowns another process holds too (`shared`, Newton order: ghosts and
/// the owned entries others hold as ghosts) and for the rows of the constraints on them (a
/// multiplier whose column or row meets a shared coordinate in `pattern`: divide_unknowns' rule,
/// read off the matrix), `rank` for the others.
std::vector<int> divide_part_unknowns(const CscPattern& pattern, const std::vector<bool>& shared,
                                      const std::vector<bool>& multiplier, int rank);

}  // namespace noether
