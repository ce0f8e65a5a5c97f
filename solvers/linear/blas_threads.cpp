#include <noether/solvers/linear/blas_threads.hpp>

#include <dlfcn.h>

#include <cstdlib>

namespace noether {
namespace {

using SetThreads = void (*)(int);
using GetThreads = int (*)();

/// OpenBLAS's thread-count functions, or null where the process's BLAS is another.
SetThreads openblas_set() { return reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")); }
GetThreads openblas_get() { return reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")); }

}  // namespace

BlasThreadLimit::BlasThreadLimit() {
  const SetThreads set = openblas_set();
  const GetThreads get = openblas_get();
  if (!set || !get || std::getenv("OPENBLAS_NUM_THREADS")) return;
  restored_ = get();
  set(1);
}

BlasThreadLimit::~BlasThreadLimit() {
  if (restored_ > 0) openblas_set()(restored_);
}

int BlasThreadLimit::threads() const {
  const GetThreads get = openblas_get();
  return get ? get() : 0;
}

}  // namespace noether
