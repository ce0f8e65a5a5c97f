# NOETHER_SANITIZE: every target of the tree built and linked with AddressSanitizer and
# UndefinedBehaviorSanitizer. The test suite's second pass (scripts/sanitize.sh, docs/testing.md)
# configures it in Debug: assertions on (no NDEBUG, so Eigen checks every index and size) and
# debug information for the reports' stack traces.
option(NOETHER_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer (see scripts/sanitize.sh)" OFF)

# NOETHER_SANITIZE_FLAGS: the compile flags, also handed to what the tests build outside this tree
# (example.external_project), so that their code is checked the same way.
set(NOETHER_SANITIZE_FLAGS)
if(NOETHER_SANITIZE)
  # -fno-sanitize-recover=all: the first undefined behaviour ends the process with an error, so the
  #   test that meets it fails (by default UBSan prints and continues).
  # -fno-omit-frame-pointer: full stack traces from ASan's frame-pointer unwinder.
  # -D_GLIBCXX_ASSERTIONS: libstdc++ checks its preconditions too (std::vector::operator[] bounds,
  #   front() of an empty container, ...), as Eigen's assertions check Eigen's.
  set(NOETHER_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
                             -D_GLIBCXX_ASSERTIONS)
  if(CMAKE_BUILD_TYPE STREQUAL "Debug")
    # -O1 instead of Debug's -O0: Eigen's expression templates unoptimized are tens of times slower
    # (each coefficient access a chain of calls), and the suite would not fit in CI's time; -O1
    # keeps the assertions and nearly all of what the sanitizers see (ASan's own recommendation
    # for reasonable performance). Measured in docs/testing.md.
    list(APPEND NOETHER_SANITIZE_FLAGS -O1)
  endif()
  add_compile_options(${NOETHER_SANITIZE_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()
