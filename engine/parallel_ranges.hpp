#pragma once
/// Element-wise work on long vectors, split over threads.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <noether/engine/types.hpp>

namespace noether {

/// Calls f(begin, end) on consecutive ranges covering [0, n), concurrently.
/// Precondition: what f computes for each index depends on that index alone (element-wise vector
/// operations, permutations), so the result is the same for any split and any number of threads.
template <class F>
void for_each_index_range(Index n, F&& f) {
  constexpr Index grain = 8192;  // below this a range is not worth a task
  if (n <= grain) return f(Index{0}, n);  // one range: no task to schedule
  tbb::parallel_for(tbb::blocked_range<Index>(0, n, grain),
                    [&](const tbb::blocked_range<Index>& range) { f(range.begin(), range.end()); });
}

}  // namespace noether
