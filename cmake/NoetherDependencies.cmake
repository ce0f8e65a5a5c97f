# Every dependency is a Debian 12 package; a missing one stops configuration and names the package.
function(noether_require_package found debian_package what)
  if(NOT ${found})
    message(FATAL_ERROR "Noether needs ${what}: install the Debian package '${debian_package}' "
                        "(apt-get install ${debian_package}).")
  endif()
endfunction()

find_package(Eigen3 3.4 QUIET NO_MODULE)
noether_require_package(Eigen3_FOUND libeigen3-dev "Eigen 3.4")

find_package(TBB QUIET)
noether_require_package(TBB_FOUND libtbb-dev "oneTBB")

find_package(nlohmann_json 3 QUIET)
noether_require_package(nlohmann_json_FOUND nlohmann-json3-dev "nlohmann JSON (summary.json)")

find_package(CLI11 QUIET)
noether_require_package(CLI11_FOUND libcli11-dev "CLI11 (command-line parsing)")

# SuiteSparse 5.12 ships no CMake package on Debian 12: find each library and header.
set(_noether_suitesparse_parts suitesparseconfig amd colamd camd ccolamd btf cholmod umfpack klu)
foreach(part IN LISTS _noether_suitesparse_parts)
  find_library(NOETHER_${part}_LIBRARY NAMES ${part})
  noether_require_package(NOETHER_${part}_LIBRARY libsuitesparse-dev "SuiteSparse (${part})")
endforeach()
find_path(NOETHER_SUITESPARSE_INCLUDE_DIR NAMES umfpack.h klu.h cholmod.h PATH_SUFFIXES suitesparse)
noether_require_package(NOETHER_SUITESPARSE_INCLUDE_DIR libsuitesparse-dev "SuiteSparse headers")
if(NOT TARGET Noether::SuiteSparse)
  add_library(Noether::SuiteSparse INTERFACE IMPORTED)
  set(_noether_suitesparse_libraries)
  foreach(part umfpack klu cholmod btf amd colamd camd ccolamd suitesparseconfig)
    list(APPEND _noether_suitesparse_libraries ${NOETHER_${part}_LIBRARY})
  endforeach()
  set_target_properties(Noether::SuiteSparse PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${NOETHER_SUITESPARSE_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${_noether_suitesparse_libraries}")
endif()

if(NOETHER_BUILD_TESTS)
  find_package(doctest QUIET)
  noether_require_package(doctest_FOUND doctest-dev "doctest (the test suite)")
endif()
if(NOETHER_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  noether_require_package(benchmark_FOUND libbenchmark-dev "Google Benchmark (the benchmarks)")
endif()
