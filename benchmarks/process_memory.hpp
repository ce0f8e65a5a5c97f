#pragma once
/// Resident memory of this process, from /proc/self/status (Linux).
#include <cstdint>

namespace noether::bench {

struct ProcessMemory {
  std::int64_t resident_bytes = 0;  ///< VmRSS
  std::int64_t peak_bytes = 0;      ///< VmHWM: the peak of VmRSS since start or the last reset_peak_memory()
};

/// Throws std::runtime_error when /proc/self/status cannot be read.
ProcessMemory read_process_memory();

/// Returns freed heap memory to the system (malloc_trim) and resets VmHWM to the current VmRSS
/// (writes 5 to /proc/self/clear_refs). False when the kernel refused the reset; VmHWM then keeps
/// the earlier peak.
bool reset_peak_memory();

}  // namespace noether::bench
