#include "process_memory.hpp"

#include <malloc.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace noether::bench {

ProcessMemory read_process_memory() {
  std::ifstream status("/proc/self/status");
  if (!status) throw std::runtime_error("cannot read /proc/self/status (the memory benchmarks need Linux)");
  ProcessMemory memory;
  std::string line;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string key;
    std::int64_t kibibytes = 0;
    fields >> key >> kibibytes;
    if (key == "VmRSS:") memory.resident_bytes = kibibytes * 1024;
    if (key == "VmHWM:") memory.peak_bytes = kibibytes * 1024;
  }
  return memory;
}

bool reset_peak_memory() {
  malloc_trim(0);
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";
  clear_refs.flush();
  return static_cast<bool>(clear_refs);
}

}  // namespace noether::bench
