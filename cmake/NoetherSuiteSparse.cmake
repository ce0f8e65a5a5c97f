# SuiteSparse 5.12 ships no CMake package on Debian 12: find each library and the headers and
# define the imported target Noether::SuiteSparse. Used by the build and by the installed package.
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
  add_library(Noether::SuiteSparse INTERFACE IMPORTED)
  set_target_properties(Noether::SuiteSparse PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${NOETHER_SUITESPARSE_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${_noether_suitesparse_libraries}")
endif()
