#include <noether/apps/mechanisms/memory_budget.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace noether {

std::int64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::int64_t kibibytes = 0;
    if (fields >> key >> kibibytes && key == "MemAvailable:") return kibibytes * 1024;
  }
  return 0;
}

void require_memory_for_bars(double bars, double bytes_per_bar, const std::string& what) {
  const double needed = bars * bytes_per_bar;
  const double available = static_cast<double>(available_memory_bytes());
  if (available <= 0 || needed <= 0.8 * available) return;
  const auto gigabytes = [](double bytes) { return std::to_string(std::lround(bytes / 1e9)); };
  throw std::invalid_argument(what + " needs about " + gigabytes(needed) + " GB (" +
                              std::to_string(std::lround(bytes_per_bar / 1e3)) + " KB per bar), and " +
                              gigabytes(available) + " GB are available: choose a smaller size");
}

}  // namespace noether
