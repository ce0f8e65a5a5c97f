#include <dlfcn.h>

#include <cstdlib>

#include <doctest/doctest.h>

#include <noether/solvers/linear/blas_threads.hpp>

using namespace noether;

namespace {

/// OpenBLAS's own count, read past BlasThreadLimit; null where the process's BLAS is another.
using GetThreads = int (*)();
GetThreads openblas_threads() {
  return reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
}

}  // namespace

TEST_CASE("BlasThreadLimit holds OpenBLAS to one thread while it lives and gives the count back") {
  const GetThreads get = openblas_threads();
  if (!get) {
    MESSAGE("the BLAS is not OpenBLAS: nothing to hold (scripts/install_packages.sh installs it)");
    const BlasThreadLimit limit;
    CHECK(limit.threads() == 0);
    return;
  }
  const int before = get();
  {
    const BlasThreadLimit limit;
    // A user's OPENBLAS_NUM_THREADS is the count OpenBLAS started with, and is kept.
    const int expected = std::getenv("OPENBLAS_NUM_THREADS") ? before : 1;
    CHECK(limit.threads() == expected);
    CHECK(get() == expected);
  }
  CHECK(get() == before);
}
