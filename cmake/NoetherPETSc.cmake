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
  find_package(MPI QUIET COMPONENTS C)
  if(NOETHER_PETSC_FOUND AND MPI_C_FOUND)
    add_library(Noether::PETSc INTERFACE IMPORTED)
    target_link_libraries(Noether::PETSc INTERFACE PkgConfig::NOETHER_PETSC MPI::MPI_C)
  endif()
endif()
