# cmake -DBUILD_DIR=<Noether build tree> -DSOURCE_DIR=<this folder> -DWORK_DIR=<scratch> [-DCMAKE_BUILD_TYPE=...]
#       [-DCXX_COMPILER=<the tree's C++ compiler>] [-DCXX_FLAGS=<flags>] -P check_installed_package.cmake
# Installs the Noether build tree into WORK_DIR/prefix, then configures, builds and runs the
# external project against it (find_package(Noether) through CMAKE_PREFIX_PATH only), compiled and
# linked by CXX_COMPILER (default: CMake's choice) with CXX_FLAGS (the sanitizer flags of a
# NOETHER_SANITIZE tree, whose runtime must be that compiler's).
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_installed_package.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
set(compiler_choice)
if(CXX_COMPILER)
  set(compiler_choice -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${what}:\n${out}${err}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status})")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run_step("install Noether into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(header noether.hpp bodies/mechanism.hpp steppers/livens_em.hpp)
  if(NOT EXISTS ${prefix}/include/noether/${header})
    message(FATAL_ERROR "the install has no include/noether/${header}")
  endif()
endforeach()
if(NOT EXISTS ${prefix}/bin/noether)
  message(FATAL_ERROR "the install has no bin/noether")
endif()
run_step("run the installed program" ${prefix}/bin/noether list)
run_step("configure the external project" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} ${compiler_choice}
         "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
run_step("build the external project" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("run the external project" ${WORK_DIR}/build/pendulum)
file(REMOVE_RECURSE ${WORK_DIR})
