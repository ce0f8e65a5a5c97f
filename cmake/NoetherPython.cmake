# The Python module `noether` (python/, docs/python.md): AUTO builds it when Python 3 with its
# headers and pybind11 are found, ON requires them (scripts/setup.sh, so that the README's
# commands always build and test it), OFF leaves it out. Build against the interpreter its users
# run: scripts/setup.sh gives Debian's, -DPython3_EXECUTABLE=/usr/bin/python3 (a pyenv shim may
# come first on PATH).
#
# The module is a shared object that links the static libraries, so they are compiled as
# position-independent code when it is built. -fno-semantic-interposition keeps the code the
# compiler makes for calls within a library as it is without -fPIC (no symbol of the libraries is
# meant to be interposed); the floating-point operations, and so every output's bytes, are the same.
set(NOETHER_WITH_PYTHON AUTO CACHE STRING "The Python module noether (pybind11): AUTO, ON or OFF")
set_property(CACHE NOETHER_WITH_PYTHON PROPERTY STRINGS AUTO ON OFF)
set(NOETHER_PYTHON_BUILT OFF)
if(NOETHER_WITH_PYTHON STREQUAL "AUTO" OR NOETHER_WITH_PYTHON)
  find_package(Python3 3.9 QUIET COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(NOETHER_PYTHON_BUILT ON)
  elseif(NOT NOETHER_WITH_PYTHON STREQUAL "AUTO")
    noether_require_package(FALSE "pybind11-dev python3-dev"
                            "Python 3 with its headers and pybind11 (NOETHER_WITH_PYTHON=ON: the Python module)")
  endif()
endif()
if(NOETHER_PYTHON_BUILT)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU>:-fno-semantic-interposition>)
  message(STATUS "Noether: the Python module: ON (${Python3_EXECUTABLE}, pybind11 ${pybind11_VERSION})")
else()
  message(STATUS "Noether: the Python module: OFF (needs python3-dev and pybind11-dev)")
endif()
