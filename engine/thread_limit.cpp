#include <noether/engine/thread_limit.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <tbb/info.h>

namespace noether {

int available_threads() { return tbb::info::default_concurrency(); }

int capped_threads(int requested) {
  if (requested < 1)
    throw std::invalid_argument("the thread limit must be at least 1, got " + std::to_string(requested));
  return std::min(requested, available_threads());
}

ThreadLimit::ThreadLimit(int requested)
    : threads_(capped_threads(requested)),
      control_(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads_)) {}

}  // namespace noether
