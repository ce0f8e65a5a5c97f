#include <noether/apps/mechanisms/memory_budget.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {
namespace {

namespace fs = std::filesystem;

/// Keeps the smaller of the two (an unknown, 0, loses).
void keep_smaller(AvailableMemory& best, const AvailableMemory& candidate) {
  if (candidate.bytes > 0 && (best.bytes <= 0 || candidate.bytes < best.bytes)) best = candidate;
}

/// The number after `key` on its line of a "key value" file (/proc/meminfo, memory.stat).
std::optional<std::int64_t> keyed_value(const fs::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    std::int64_t value = 0;
    if (fields >> name >> value && name == key) return value;
  }
  return std::nullopt;
}

/// The one number a cgroup file holds; nullopt for "max" or a missing file.
std::optional<std::int64_t> single_value(const fs::path& file) {
  std::ifstream in(file);
  std::int64_t value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

/// The soft limit of `resource` less what the process uses of it (/proc/self/status `usage_key`, kB).
AvailableMemory rlimit_available(int resource, const char* usage_key, const char* name) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return {};
  const std::int64_t used = keyed_value("/proc/self/status", usage_key).value_or(0) * 1024;
  const std::int64_t left = static_cast<std::int64_t>(limit.rlim_cur) - used;
  return {left > 0 ? left : 1, name};
}

/// One cgroup's limit less its usage that cannot be reclaimed at once; bytes 0 without a limit.
AvailableMemory cgroup_level(const fs::path& dir, bool v2) {
  const std::optional<std::int64_t> limit = single_value(dir / (v2 ? "memory.max" : "memory.limit_in_bytes"));
  // cgroup v1 writes "no limit" as a number near 2^63 rounded to pages.
  if (!limit || *limit >= (std::int64_t{1} << 62)) return {};
  const std::int64_t usage = single_value(dir / (v2 ? "memory.current" : "memory.usage_in_bytes")).value_or(0);
  const std::int64_t inactive_file = keyed_value(dir / "memory.stat", v2 ? "inactive_file" : "total_inactive_file").value_or(0);
  const std::int64_t left = *limit - (usage - inactive_file);
  return {left > 0 ? left : 1, "the memory limit of cgroup " + (dir / (v2 ? "memory.max" : "memory.limit_in_bytes")).string()};
}

/// The share set_memory_share sets, which the estimates read.
MemoryShare& share_of_this_process() {
  static MemoryShare share;
  return share;
}

}  // namespace

AvailableMemory cgroup_available_memory(const fs::path& proc_self_cgroup, const fs::path& cgroup_mount) {
  AvailableMemory best;
  std::ifstream in(proc_self_cgroup);
  std::string line;
  while (std::getline(in, line)) {
    // "0::/path" (v2) or "4:memory:/path" (v1; controllers may be joined by commas).
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::string controllers = ",";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "," + string
    controllers += line.substr(first + 1, second - first - 1);
    controllers += ',';
    const bool v2 = controllers == ",,";
    if (!v2 && controllers.find(",memory,") == std::string::npos) continue;
    const fs::path root = v2 ? cgroup_mount : cgroup_mount / "memory";
    // A limit of any ancestor binds too. Inside a cgroup namespace the path may not exist under
    // the mount; the levels that do exist are read.
    fs::path relative = fs::path(line.substr(second + 1)).relative_path();
    for (;; relative = relative.parent_path()) {
      keep_smaller(best, cgroup_level(root / relative, v2));
      if (relative.empty()) break;
    }
  }
  return best;
}

AvailableMemory available_memory() {
  AvailableMemory best;
  if (const auto kibibytes = keyed_value("/proc/meminfo", "MemAvailable:"))
    best = {*kibibytes * 1024, "MemAvailable in /proc/meminfo"};
  keep_smaller(best, rlimit_available(RLIMIT_AS, "VmSize:", "the address-space limit RLIMIT_AS (ulimit -v)"));
  keep_smaller(best, rlimit_available(RLIMIT_DATA, "VmData:", "the data limit RLIMIT_DATA (ulimit -d)"));
  keep_smaller(best, cgroup_available_memory("/proc/self/cgroup", "/sys/fs/cgroup"));
  return best;
}

std::int64_t available_memory_bytes() { return available_memory().bytes; }

void set_memory_share(const MemoryShare& share) {
  if (share.here < 1 || share.parts < 1)
    throw std::invalid_argument("a memory share needs at least one process here and one part, got " +
                                std::to_string(share.here) + " and " + std::to_string(share.parts));
  share_of_this_process() = share;
}

const MemoryShare& memory_share() { return share_of_this_process(); }

void require_memory_for_model(double bodies, double whole_bytes, const std::string& what, const std::string& basis) {
  const int parts = memory_share().parts;
  if (parts == 1) return require_memory(whole_bytes, what, basis);
  const double description = bodies * kDescriptionBarBytes;
  require_memory(description + std::max(0.0, whole_bytes - description) / parts, what,
                 basis + " in one process; over " + std::to_string(parts) + " parts each process holds a 1/" +
                     std::to_string(parts) + " share of it beyond the " +
                     format_number(kDescriptionBarBytes / 1e3) + " KB per body it holds of the whole");
}

void require_memory_for_bars(double bars, double bytes_per_bar, const std::string& what) {
  require_memory_for_model(bars, bars * bytes_per_bar, what, std::to_string(std::lround(bytes_per_bar / 1e3)) + " KB per bar");
}

void require_memory(double needed, const std::string& what, const std::string& basis) {
  const AvailableMemory available = available_memory();
  const auto bytes = static_cast<double>(available.bytes);
  const MemoryShare& share = memory_share();
  const std::string each =
      share.here == 1 ? "" : ", for each of the " + std::to_string(share.here) + " processes on this machine";
  needed *= share.here;
  if (bytes <= 0 || needed <= 0.8 * bytes) return;
  const auto gigabytes = [](double value) {
    char text[32];
    const double gb = value / 1e9;
    std::snprintf(text, sizeof text, gb < 10 ? "%.2g" : "%.0f", gb);
    return std::string(text);
  };
  const std::string or_else = share.here == 1   ? ""
                              : share.parts == 1 ? ", or --parts on (each process holds its part)"
                                                 : ", or spread the processes over more machines (a hostfile)";
  throw std::invalid_argument(what + " needs about " + gigabytes(needed) + " GB (" + basis + each + "), and " +
                              gigabytes(bytes) + " GB are available: choose a smaller size" + or_else +
                              " (the limit is " + available.limit + ")");
}

}  // namespace noether
