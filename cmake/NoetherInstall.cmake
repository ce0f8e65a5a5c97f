# Installation: the program bin/noether, public headers under include/noether/<layer>/ and a CMake
# package exporting Noether::noether (the umbrella target) for find_package(Noether).
include(CMakePackageConfigHelpers)

foreach(layer engine bodies joints solvers steppers apps/model apps/mechanisms apps/scenarios)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/noether/${layer}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/include/noether/noether.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/noether)

set_target_properties(noether_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(noether_bodies PROPERTIES EXPORT_NAME bodies)
set_target_properties(noether_joints PROPERTIES EXPORT_NAME joints)
set_target_properties(noether_solvers PROPERTIES EXPORT_NAME solvers)
set_target_properties(noether_steppers PROPERTIES EXPORT_NAME steppers)
set_target_properties(noether_scenarios PROPERTIES EXPORT_NAME scenarios)
set_target_properties(noether_model PROPERTIES EXPORT_NAME model)
set_target_properties(noether_mechanisms PROPERTIES EXPORT_NAME mechanisms)
set_target_properties(noether PROPERTIES EXPORT_NAME noether)
install(TARGETS noether noether_engine noether_bodies noether_joints noether_solvers noether_steppers
                noether_model noether_mechanisms noether_scenarios
        EXPORT NoetherTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The command-line program (docs/cli.md); its libraries are static, so it needs no Noether library
# at run time.
install(TARGETS noether_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(NOETHER_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Noether)
install(EXPORT NoetherTargets NAMESPACE Noether:: DESTINATION ${NOETHER_PACKAGE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/NoetherConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/NoetherConfig.cmake INSTALL_DESTINATION ${NOETHER_PACKAGE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/NoetherConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/NoetherConfig.cmake ${PROJECT_BINARY_DIR}/NoetherConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/NoetherSuiteSparse.cmake ${PROJECT_SOURCE_DIR}/cmake/NoetherPETSc.cmake
        DESTINATION ${NOETHER_PACKAGE_DIR})
