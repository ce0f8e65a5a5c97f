#pragma once
/// The bound on the worker threads of the engine's parallel loops.
#include <tbb/global_control.h>

namespace noether {

/// The threads the engine's parallel loops can run on at most: tbb::info::default_concurrency(),
/// the cores this process may run on (its CPU affinity mask).
int available_threads();

/// The bound a ThreadLimit of `requested` sets: min(requested, available_threads()). Throws
/// std::invalid_argument for requested < 1.
int capped_threads(int requested);

/// Bounds the threads of every parallel loop of the engine (assembly, the measures of a state)
/// to capped_threads(requested) for as long as it lives: a tbb::global_control of
/// max_allowed_parallelism (the smallest bound among those alive holds, process-wide). The bound
/// is capped at the cores because TBB sizes its worker pool by it, in memory and start-up time
/// proportional to the bound, while no more threads than cores run at once; the results are
/// bitwise the same for any number of threads (docs/architecture.md). Per-thread workspaces
/// (the assembler's scratch) are made by the threads that take part, so they too are at most
/// threads(). Throws std::invalid_argument for requested < 1.
///
/// Threads: make it in the thread that starts the work, before it; it applies to every thread.
class ThreadLimit {
 public:
  explicit ThreadLimit(int requested);
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

  /// The bound set: capped_threads(requested).
  int threads() const { return threads_; }

 private:
  int threads_;
  tbb::global_control control_;
};

}  // namespace noether
