#include <noether/apps/huge_pages.hpp>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace noether {

std::optional<std::string> huge_page_tunables(const char* tunables, std::string_view thp_enabled, const char* ld_preload) {
  const std::string_view set = tunables ? tunables : "";
  if (set.find("glibc.malloc.hugetlb") != std::string_view::npos) return std::nullopt;
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;
  if (ld_preload && std::string_view(ld_preload).find("vgpreload") != std::string_view::npos) return std::nullopt;
  std::string value(set);
  if (!value.empty()) value += ':';
  value += kHugePageTunable;
  return value;
}

void restart_with_huge_pages(char** argv) {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::string thp_enabled{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  const char* before = std::getenv(kGlibcTunables);
  const std::optional<std::string> tunables = huge_page_tunables(before, thp_enabled, std::getenv("LD_PRELOAD"));
  if (!tunables) return;
  const std::string kept = before ? before : "";
  if (setenv(kGlibcTunables, tunables->c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not restarted: go on as started, with the environment as it was.
  if (before) setenv(kGlibcTunables, kept.c_str(), 1);
  else unsetenv(kGlibcTunables);
}

}  // namespace noether
