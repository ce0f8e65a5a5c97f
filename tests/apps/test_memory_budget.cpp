/// The memory guard takes the tightest of the limits the process lives under (a guard that read
/// MemAvailable only would pass chain2d n = 600000 under `ulimit -v 3000000`, which then dies with
/// std::bad_alloc).
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include <doctest/doctest.h>

#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/scene_file.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

/// Sets the soft limit of `resource` for the scope, restoring the old one after.
class SoftLimit {
 public:
  SoftLimit(int resource, rlim_t value) : resource_(resource) {
    getrlimit(resource, &old_);
    rlimit lowered = old_;
    lowered.rlim_cur = value;
    REQUIRE(setrlimit(resource, &lowered) == 0);
  }
  ~SoftLimit() { setrlimit(resource_, &old_); }
  SoftLimit(const SoftLimit&) = delete;
  SoftLimit& operator=(const SoftLimit&) = delete;

 private:
  int resource_;
  rlimit old_{};
};

/// The process's current VmSize or VmData in bytes (/proc/self/status).
std::int64_t status_bytes(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string name;
  std::int64_t kibibytes = 0;
  while (in >> name) {
    if (name == key && in >> kibibytes) return kibibytes * 1024;
  }
  return 0;
}

}  // namespace

TEST_CASE("a cgroup v2 limit, of the process's group or of an ancestor, bounds the available memory") {
  TempDir dir("cgroup_v2");
  write(dir.path / "cgroup", "0::/user.slice/job\n");
  const fs::path mount = dir.path / "mount";
  write(mount / "memory.max", "max\n");  // the root: no limit
  write(mount / "user.slice" / "memory.max", "3000000000\n");
  write(mount / "user.slice" / "memory.current", "1000000000\n");
  write(mount / "user.slice" / "job" / "memory.max", "2000000000\n");
  write(mount / "user.slice" / "job" / "memory.current", "600000000\n");
  write(mount / "user.slice" / "job" / "memory.stat", "anon 400000000\ninactive_file 100000000\nactive_file 5\n");
  // job: 2e9 - (6e8 - 1e8) = 1.5e9; user.slice: 3e9 - 1e9 = 2e9. The job's binds.
  AvailableMemory m = cgroup_available_memory(dir.path / "cgroup", mount);
  CHECK(m.bytes == 1'500'000'000);
  CHECK(m.limit == "the memory limit of cgroup " + (mount / "user.slice" / "job" / "memory.max").string());
  write(mount / "user.slice" / "memory.max", "1200000000\n");  // now the ancestor binds: 2e8 left
  m = cgroup_available_memory(dir.path / "cgroup", mount);
  CHECK(m.bytes == 200'000'000);
  CHECK(m.limit.ends_with("user.slice/memory.max"));
}

TEST_CASE("a cgroup v1 memory limit is read from the memory hierarchy, and its 'unlimited' value is none") {
  TempDir dir("cgroup_v1");
  write(dir.path / "cgroup", "12:pids:/x\n4:cpu,memory:/docker/abc\n0::/\n");
  const fs::path mount = dir.path / "mount";
  write(mount / "memory" / "memory.limit_in_bytes", "9223372036854771712\n");
  write(mount / "memory" / "docker" / "abc" / "memory.limit_in_bytes", "4000000000\n");
  write(mount / "memory" / "docker" / "abc" / "memory.usage_in_bytes", "1000000000\n");
  write(mount / "memory" / "docker" / "abc" / "memory.stat", "cache 7\ntotal_inactive_file 250000000\n");
  const AvailableMemory m = cgroup_available_memory(dir.path / "cgroup", mount);
  CHECK(m.bytes == 3'250'000'000);
  CHECK(m.limit.ends_with("docker/abc/memory.limit_in_bytes"));
  write(mount / "memory" / "docker" / "abc" / "memory.limit_in_bytes", "9223372036854771712\n");
  CHECK(cgroup_available_memory(dir.path / "cgroup", mount).bytes == 0);  // no limit anywhere
  CHECK(cgroup_available_memory(dir.path / "missing", mount).bytes == 0);
}

TEST_CASE("the address-space limit (ulimit -v) and the data limit (ulimit -d) bound the available memory") {
  REQUIRE(available_memory_bytes() > 0);  // Linux: /proc/meminfo
  struct LimitCase {
    int resource;       // RLIMIT_AS or RLIMIT_DATA
    const char* usage;  // its line in /proc/self/status
    const char* name;   // as the message names it
  };
  for (const LimitCase& limit_case : {LimitCase{RLIMIT_AS, "VmSize:", "RLIMIT_AS (ulimit -v)"},
                                      LimitCase{RLIMIT_DATA, "VmData:", "RLIMIT_DATA (ulimit -d)"}}) {
    // A struct, not a tuple's structured binding: CAPTURE's lambda cannot capture a binding in clang 14.
    const int resource = limit_case.resource;
    const std::string name = limit_case.name;
    CAPTURE(name);
    // 1 GB above what the process uses now: less than any test machine has free.
    const auto limit = static_cast<rlim_t>(status_bytes(limit_case.usage) + 1'000'000'000);
    const std::string expected = std::string("GB are available: choose a smaller size (the limit is ") +
                                 (resource == RLIMIT_AS ? "the address-space limit " : "the data limit ") + name + ")";
    AvailableMemory m;
    {
      const SoftLimit lowered(resource, limit);
      m = available_memory();
      // 1e6 planar bars need 14 GB.
      CHECK_THROWS_WITH_AS(require_memory_for_bars(1e6, kPlanarBarPeakBytes, "scenario 'chain2d' with n = 1000000"),
                           doctest::Contains(expected.c_str()), std::invalid_argument);
    }
    CHECK(m.bytes <= 1'000'000'000);
    CHECK(m.bytes > 900'000'000);  // what the process used meanwhile is small
    CHECK(m.limit.ends_with(name));
  }
}

TEST_CASE("a scene file gets the generators' memory estimate, and a refusal before it is built") {
  // A scene of 10^6 bodies under a 3 GB address-space limit ended in "std::bad_alloc" after 22 s;
  // the generated scenarios were refused at once with the estimate.
  std::ostringstream scene;  // a stream: GCC 12 warns falsely on long chains of std::string +
  scene << R"({"noether_scene": 1, "run": {"h": 0.01, "t_end": 0.01}, "bodies": [)";
  for (int i = 0; i < 100000; ++i)
    scene << (i ? "," : "") << R"({"name": "b)" << i << R"(", "type": "planar", "mass": 1, "inertia": 0.1, "position": [0, 0]})";
  scene << "]}";
  const std::string text = scene.str();
  // 1 GB above what the process uses now: 100 000 planar bodies of 14 KB need 1.4 GB.
  const SoftLimit lowered(RLIMIT_AS, static_cast<rlim_t>(status_bytes("VmSize:") + 1'000'000'000));
  CHECK_THROWS_WITH_AS(parse_scene(text, "big.json"),
                       doctest::Contains("big.json: the model of 100000 bodies needs about 1.4 GB (26 KB per "
                                         "rigid body, 14 KB per other body), and "),
                       std::invalid_argument);
}

TEST_CASE("a scene file too large for memory is refused by its size before it is read") {
  // A sparse file of 10^12 bytes: reading it would take minutes, its size alone decides.
  const TempDir dir("huge_scene");
  const fs::path file = dir.path / "huge.json";
  fs::create_directories(dir.path);
  std::ofstream(file).close();
  fs::resize_file(file, 1'000'000'000'000);
  const std::string refusal = "reading the scene '" + file.string() + "' (1000000 MB of JSON) needs about";
  CHECK_THROWS_WITH_AS(load_scene(file), doctest::Contains(refusal.c_str()), std::invalid_argument);
  // Read for a run over parts, the text and the outline alone: a bound of its own.
  CHECK_THROWS_WITH_AS(load_scene(file), doctest::Contains("(8 bytes per byte of JSON)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(load_scene(file, SceneBuild::outlined), doctest::Contains("(3 bytes per byte of JSON)"),
                       std::invalid_argument);
}

TEST_CASE("the memory estimate counts the processes on this machine, and over parts each one's share") {
  /// The share for the scope, one process holding the whole model after.
  struct Shared {
    explicit Shared(MemoryShare share) { set_memory_share(share); }
    ~Shared() { set_memory_share({}); }
    Shared(const Shared&) = delete;
    Shared& operator=(const Shared&) = delete;
  };
  // The refusal of `bars` 3D bars, "" when they fit.
  const auto refusal = [](double bars) -> std::string {
    try {
      require_memory_for_bars(bars, k3dBarPeakBytes, "scenario 'chain3d'");
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  // 1 GB above what the process uses now, of which the estimate may take 0.8 GB: 20 000 3D bars
  // need 0.52 GB in one process, 1.04 GB in two replicated ones on this machine, and over two
  // parts 20 000 x (1.5 KB + 24.5 KB / 2) = 0.28 GB in each of the two, 0.55 GB.
  const SoftLimit lowered(RLIMIT_AS, static_cast<rlim_t>(status_bytes("VmSize:") + 1'000'000'000));
  CHECK(refusal(2e4).empty());
  {
    const Shared replicated({.here = 2, .parts = 1});
    const std::string words = refusal(2e4);
    CHECK_MESSAGE(words.find("(26 KB per bar, for each of the 2 processes on this machine)") != std::string::npos, words);
    CHECK_MESSAGE(words.find("choose a smaller size, or --parts on (each process holds its part)") != std::string::npos,
                  words);
  }
  {
    const Shared over_parts({.here = 2, .parts = 2});
    CHECK(refusal(2e4).empty());
    const std::string words = refusal(8e4);  // 2.3 GB for the two
    CHECK_MESSAGE(words.find("(26 KB per bar in one process; over 2 parts each process holds a 1/2 share of it beyond "
                             "the 1.5 KB per body it holds of the whole, for each of the 2 processes on this machine)") !=
                      std::string::npos,
                  words);
    CHECK_MESSAGE(words.find("or spread the processes over more machines") != std::string::npos, words);
  }
  {
    const Shared machines({.here = 1, .parts = 4});  // four processes on as many machines: 0.65 GB each
    CHECK(refusal(8e4).empty());
  }
  CHECK_THROWS_AS(set_memory_share({.here = 0, .parts = 1}), std::invalid_argument);
}
