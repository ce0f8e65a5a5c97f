#pragma once
/// Whether a generated mechanism of a given size fits in the memory this process may use, decided
/// before building it: a mechanism too large would otherwise be killed by the kernel part-way
/// through with no message, or end in std::bad_alloc.
#include <cstdint>
#include <filesystem>
#include <string>

namespace noether {

/// Bytes this process can still allocate, and the limit that sets them.
struct AvailableMemory {
  std::int64_t bytes = 0;  ///< 0 when unknown
  std::string limit;       ///< e.g. "MemAvailable in /proc/meminfo", "the address-space limit (ulimit -v)"
};

/// The smallest of: MemAvailable from /proc/meminfo (what can be allocated without swapping);
/// the address-space limit RLIMIT_AS (ulimit -v) less the process's VmSize; the data limit
/// RLIMIT_DATA (ulimit -d) less its VmData; and for the process's memory cgroup and each of its
/// ancestors, the limit (v2 memory.max, v1 memory.limit_in_bytes) less the usage not reclaimable
/// at once (memory.current or memory.usage_in_bytes, less inactive_file of memory.stat).
AvailableMemory available_memory();
/// available_memory().bytes.
std::int64_t available_memory_bytes();

/// The cgroup part of available_memory, read from a /proc/self/cgroup file and the cgroup mount
/// point (/sys/fs/cgroup; v1's memory hierarchy is its memory/ folder); bytes 0 when no cgroup
/// sets a limit. Separate so that tests can give it a tree of their own.
AvailableMemory cgroup_available_memory(const std::filesystem::path& proc_self_cgroup,
                                        const std::filesystem::path& cgroup_mount);

/// Peak bytes per bar of building a generated mechanism and a livens-em stepper and stepping it:
/// the memory benchmarks' peak with UMFPACK, which exceeds KLU's, plus about 15 % (the measured
/// peaks: docs/performance/report.md, its memory table). The grids, whose fill grows
/// with k, are not measured and get a generous 30 KB.
constexpr double kPlanarBarPeakBytes = 14e3;
constexpr double k3dBarPeakBytes = 26e3;
constexpr double kLatticeBarPeakBytes = 30e3;

/// Bytes per bar that a process of a run over parts holds of the whole model beside its share: A
/// of the fit m = n (A + B / P) of chain3d n = 1e5's peak over P = 2 and 4 processes, 0.52 to 0.56
/// KB on every process (docs/distributed.md, "What process 0 holds"), with 0.7 KB more for a
/// scene's text, which process 0 of a run that writes checkpoints keeps through setup (run()); rounded
/// up to 1.5 KB, since A moves by tens of MB at n = 1e5 with the heap's layout and the buffers'
/// capacities (0.56 to 0.87 KB over the programs measured there).
constexpr double kDescriptionBarBytes = 1.5e3;

/// How the processes of a run share the memory of this machine: `here` of them run on it (an MPI
/// job's processes on this machine; 1 alone), and each holds the whole model (`parts` 1), or its
/// part of a run over `parts` processes beside what it holds of the whole (kDescriptionBarBytes).
struct MemoryShare {
  int here = 1;
  int parts = 1;
};

/// The share the estimates below assume, process-wide (one process holding the whole model until
/// it is set). The program sets it once it knows its processes and the run's --parts, before it
/// describes a model (apps/noether.cpp). Threads: set it before other threads estimate.
void set_memory_share(const MemoryShare& share);
const MemoryShare& memory_share();

/// Throws std::invalid_argument, naming `what` (e.g. "scenario 'chain2d' with n = 100000000"),
/// the estimated need, the available memory and the limit that sets it, when a model of `bodies`
/// bodies that needs `whole_bytes` in one process (estimated on `basis`, e.g. "26 KB per bar",
/// which the message names) needs more than 80 % of the available memory under memory_share():
/// over parts each process needs bodies kDescriptionBarBytes + (whole_bytes - bodies
/// kDescriptionBarBytes) / parts, and the `here` processes of this machine need it each. Does
/// nothing when the available memory is unknown.
void require_memory_for_model(double bodies, double whole_bytes, const std::string& what, const std::string& basis);

/// require_memory_for_model of `bars` bars of `bytes_per_bar` each.
void require_memory_for_bars(double bars, double bytes_per_bar, const std::string& what);

/// The same for `needed` bytes of each process, estimated on `basis` (e.g. "14 KB per bar"), which
/// the message names: memory_share().here processes need them each.
void require_memory(double needed, const std::string& what, const std::string& basis);

}  // namespace noether
