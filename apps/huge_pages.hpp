#pragma once
/// Transparent huge pages for the heap of the noether program.
///
/// A run touches each page of its model's memory once as it builds it, and each 4 KiB page costs
/// a page fault: chain3d n = 10^5 over two processes takes 220 000 of them per process before its
/// first step, about a third of its setup on a virtual machine (docs/performance.md, "Huge
/// pages"). Where the kernel gives transparent huge pages (2 MiB) only to the memory that asks for
/// them (/sys/kernel/mm/transparent_hugepage/enabled reads "[madvise]"), glibc's malloc asks for
/// them when its tunable glibc.malloc.hugetlb is 1. glibc reads its tunables from the environment
/// as a program starts, so the program starts itself again with the tunable set, before anything
/// else (MPI included) has run.
#include <optional>
#include <string>
#include <string_view>

namespace noether {

/// The environment variable glibc reads its tunables from, and the tunable set here.
inline constexpr const char* kGlibcTunables = "GLIBC_TUNABLES";
inline constexpr std::string_view kHugePageTunable = "glibc.malloc.hugetlb=1";

/// The value of GLIBC_TUNABLES to start again with, or nothing to start with as it is. Nothing
/// when `tunables` (the variable's value, null if unset) already names glibc.malloc.hugetlb (the
/// user's choice, =0 to keep 4 KiB pages, or a restart's), when `thp_enabled` (the kernel's setting
/// file's text) does not select madvise (always: every process has huge pages already; never: none
/// to ask for), or when `ld_preload` names valgrind's preload (a restart would leave its tool).
/// Else the tunables with glibc.malloc.hugetlb=1 appended.
std::optional<std::string> huge_page_tunables(const char* tunables, std::string_view thp_enabled, const char* ld_preload);

/// Starts this program again, with `argv`, with huge_page_tunables' value for GLIBC_TUNABLES, where
/// it gives one; returns where it gives none or the restart fails (the run goes on with 4 KiB
/// pages: slower, not wrong). Call first in main.
void restart_with_huge_pages(char** argv);

}  // namespace noether
