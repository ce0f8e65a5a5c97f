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

include(NoetherSuiteSparse)

# The PETSc back-end (mumps; docs/distributed.md): AUTO builds it when PETSc is found, ON requires
# it (scripts/setup.sh all, so that the test suite always tests it), OFF leaves it out. Without it
# `--solver mumps` says how to get it.
set(NOETHER_WITH_PETSC AUTO CACHE STRING "The MUMPS back-end through PETSc: AUTO, ON or OFF")
set_property(CACHE NOETHER_WITH_PETSC PROPERTY STRINGS AUTO ON OFF)
set(NOETHER_PETSC_BUILT OFF)
if(NOETHER_WITH_PETSC STREQUAL "AUTO" OR NOETHER_WITH_PETSC)
  include(NoetherPETSc)
  if(TARGET Noether::PETSc)
    set(NOETHER_PETSC_BUILT ON)
  elseif(NOT NOETHER_WITH_PETSC STREQUAL "AUTO")
    noether_require_package(FALSE petsc-dev "PETSc with MPI (NOETHER_WITH_PETSC=ON: the mumps back-end)")
  endif()
endif()
message(STATUS "Noether: the PETSc back-end (mumps): ${NOETHER_PETSC_BUILT}")

# Runs over several processes (distributed/, docs/distributed.md): on when MPI is found, unless
# configured off; NOETHER_MPI=ON without MPI stops configuration and names the package.
find_package(MPI QUIET COMPONENTS C)
option(NOETHER_MPI "Build the runs over several processes (needs MPI)" ${MPI_C_FOUND})
if(NOETHER_MPI)
  noether_require_package(MPI_C_FOUND libopenmpi-dev "MPI (runs over several processes)")
  # C++ sources use MPI's C interface; mpi.h would otherwise pull in the removed C++ bindings,
  # which need a library of their own. (After NoetherPETSc, whose find_package(MPI) resets the
  # target's properties.)
  set_property(TARGET MPI::MPI_C APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
endif()

if(NOETHER_BUILD_TESTS)
  find_package(doctest QUIET)
  noether_require_package(doctest_FOUND doctest-dev "doctest (the test suite)")
endif()
if(NOETHER_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  noether_require_package(benchmark_FOUND libbenchmark-dev "Google Benchmark (the benchmarks)")
endif()
