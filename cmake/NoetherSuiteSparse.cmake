# SuiteSparse 5.12 ships no CMake package on Debian 12: find each library and the headers and
# define the imported target Noether::SuiteSparse, with METIS 5.1 (the nested-dissection orderings
# of solvers/linear/nested_dissection.hpp; CHOLMOD links its shared library already, libmetis-dev adds
# the header). Used by the build and by the installed package.
if(NOT COMMAND noether_require_package)
  function(noether_require_package found debian_package what)
    if(NOT ${found})
      message(FATAL_ERROR "Noether needs ${what}: install the Debian package '${debian_package}' "
                          "(apt-get install ${debian_package}).")
    endif()
  endfunction()
endif()

if(NOT TARGET Noether::SuiteSparse)
  set(_noether_suitesparse_libraries)
  foreach(part spqr umfpack klu cholmod btf amd colamd camd ccolamd suitesparseconfig)
    find_library(NOETHER_${part}_LIBRARY NAMES ${part})
    noether_require_package(NOETHER_${part}_LIBRARY libsuitesparse-dev "SuiteSparse (${part})")
    list(APPEND _noether_suitesparse_libraries ${NOETHER_${part}_LIBRARY})
  endforeach()
  find_path(NOETHER_SUITESPARSE_INCLUDE_DIR NAMES umfpack.h klu.h cholmod.h PATH_SUFFIXES suitesparse)
  noether_require_package(NOETHER_SUITESPARSE_INCLUDE_DIR libsuitesparse-dev "SuiteSparse headers")
  find_library(NOETHER_metis_LIBRARY NAMES metis)
  find_path(NOETHER_METIS_INCLUDE_DIR NAMES metis.h)
  noether_require_package(NOETHER_metis_LIBRARY libmetis-dev "METIS 5 (library)")
  noether_require_package(NOETHER_METIS_INCLUDE_DIR libmetis-dev "METIS 5 (metis.h)")
  list(APPEND _noether_suitesparse_libraries ${NOETHER_metis_LIBRARY})
  add_library(Noether::SuiteSparse INTERFACE IMPORTED)
  set_target_properties(Noether::SuiteSparse PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${NOETHER_SUITESPARSE_INCLUDE_DIR};${NOETHER_METIS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${_noether_suitesparse_libraries}")
endif()
