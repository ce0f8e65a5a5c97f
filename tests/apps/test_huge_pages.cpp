/// When the noether program starts itself again with glibc's huge-page tunable (apps/huge_pages.hpp).
#include <doctest/doctest.h>

#include <noether/apps/huge_pages.hpp>

using namespace noether;

namespace {

constexpr const char* kMadvise = "always [madvise] never\n";

}  // namespace

TEST_CASE("the program asks for huge pages where the kernel gives them on request and nothing chose otherwise") {
  CHECK(huge_page_tunables(nullptr, kMadvise, nullptr) == "glibc.malloc.hugetlb=1");
  CHECK(huge_page_tunables("", kMadvise, "libfoo.so") == "glibc.malloc.hugetlb=1");
}

TEST_CASE("the huge-page tunable is appended to the tunables already set, which are kept") {
  CHECK(huge_page_tunables("glibc.malloc.arena_max=2", kMadvise, nullptr) ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST_CASE("no restart where the tunable is named already: the user's choice, or the restarted program") {
  CHECK_FALSE(huge_page_tunables("glibc.malloc.hugetlb=0", kMadvise, nullptr));
  CHECK_FALSE(huge_page_tunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", kMadvise, nullptr));
}

TEST_CASE("no restart where the kernel gives huge pages to every process, or to none") {
  CHECK_FALSE(huge_page_tunables(nullptr, "[always] madvise never\n", nullptr));
  CHECK_FALSE(huge_page_tunables(nullptr, "always madvise [never]\n", nullptr));
  CHECK_FALSE(huge_page_tunables(nullptr, "", nullptr));  // no such file: a kernel without THP
}

TEST_CASE("no restart under valgrind, which would run the restarted program outside its tool") {
  CHECK_FALSE(huge_page_tunables(nullptr, kMadvise, "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so"));
}
