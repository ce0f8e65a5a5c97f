#pragma once
/// LibraryLeaksUnchecked: while one lives, LeakSanitizer does not check what is allocated (under
/// AddressSanitizer builds, scripts/sanitize.sh; nothing otherwise). For the calls into MPI, PETSc
/// and MUMPS only: Open MPI's start (its components, hwloc's topology, parameter strings) and
/// MUMPS 5.5's analysis (8 bytes per analysis in dmumps_ana_driver_, and the communicator it
/// duplicates) keep memory they never free, partly in libraries built without frame pointers,
/// whose allocations LeakSanitizer's fast unwinder cannot attribute for a suppression file
/// (docs/testing.md).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define NOETHER_LSAN 1
#endif
#endif

namespace noether {

struct LibraryLeaksUnchecked {
#ifdef NOETHER_LSAN
  __lsan::ScopedDisabler disabled;
#endif
};

}  // namespace noether
