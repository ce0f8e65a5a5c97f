#pragma once
/// Permutations of index ranges, checked.
#include <span>
#include <string_view>
#include <vector>

#include "engine/types.hpp"

namespace noether {

/// inverse (n) with inverse[order[k]] = k, when order is a permutation of [0, n). Throws
/// std::invalid_argument otherwise, the message starting with `what` (e.g. "permute_csc: rows")
/// and naming the first bad entry: "<what>[3] = 7 is out of range or repeated: not a permutation
/// of 0..5", or "<what> holds 4 entries, expected 6".
std::vector<Index> inverse_permutation(std::span<const Index> order, Index n, std::string_view what);

}  // namespace noether
