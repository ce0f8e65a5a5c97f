#include <noether/solvers/linear/blas_threads.hpp>

#include <dlfcn.h>

#include <cstdlib>

namespace noether {
namespace {

using SetThreads = void (*)(int);
using GetThreads = int (*)();

/// OpenBLAS's function `name` where OpenBLAS is loaded, null otherwise: in the global scope (a
/// program linked against the BLAS), or as libopenblas.so.0 loaded by a library opened locally
/// (Python loads its extension modules so, and their libraries stay out of the global scope).
void* openblas_function(const char* name) {
  if (void* function = dlsym(RTLD_DEFAULT, name)) return function;
  void* library = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_NOLOAD);
  if (!library) return nullptr;
  void* function = dlsym(library, name);
  dlclose(library);  // the reference RTLD_NOLOAD took: the library stays loaded by whoever loaded it
  return function;
}

/// OpenBLAS's thread-count functions, or null where the process's BLAS is another.
SetThreads openblas_set() { return reinterpret_cast<SetThreads>(openblas_function("openblas_set_num_threads")); }
GetThreads openblas_get() { return reinterpret_cast<GetThreads>(openblas_function("openblas_get_num_threads")); }

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
