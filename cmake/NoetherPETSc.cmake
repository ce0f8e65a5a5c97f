# PETSc (Debian's petsc-dev, pkg-config name PETSc) and the MPI it is built with, as the imported
# target Noether::PETSc: what the MUMPS back-end (solvers/linear/petsc_lu_solver.*)
# compile and link with. Used by the build (NOETHER_WITH_PETSC) and by the installed package of a
# build with PETSc, whose static libraries need PETSc and MPI at a consumer's link. Defines nothing
# when either is missing.
if(NOT TARGET Noether::PETSc)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(NOETHER_PETSC QUIET IMPORTED_TARGET PETSc)
  endif()
  # MPI's C interface, found through the C compiler when the project enables C, else through the
  # C++ compiler (a consumer project of LANGUAGES CXX).
  get_property(_noether_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(_noether_mpi_language CXX)
  if("C" IN_LIST _noether_languages)
    set(_noether_mpi_language C)
  endif()
  find_package(MPI QUIET COMPONENTS ${_noether_mpi_language})
  if(NOETHER_PETSC_FOUND AND MPI_${_noether_mpi_language}_FOUND)
    add_library(Noether::PETSc INTERFACE IMPORTED)
    target_link_libraries(Noether::PETSc INTERFACE PkgConfig::NOETHER_PETSC MPI::MPI_${_noether_mpi_language})
  endif()
endif()
