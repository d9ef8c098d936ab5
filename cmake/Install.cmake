# SPDX-License-Identifier: Apache-2.0
# Installs headers, the library, the kerntime command, the license and a CMake package, so that
# another project can find_package(kerntime CONFIG REQUIRED) and link kerntime::kerntime (and
# kerntime::main for a benchmark program with KERNTIME_BENCHMARK_MAIN()), run kerntime::cli and
# call kerntime_add_regression_test().
include(CMakePackageConfigHelpers)

set(KERNTIME_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kerntime)

install(TARGETS kerntime kerntime_main kerntime_cli
  EXPORT kerntimeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# `kerntime run` finds its injection library at ../lib beside the command (run_command.cpp), and
# the library it preloads beside that.
install(TARGETS kerntime_inject kerntime_preload LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kerntime
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/kerntime/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kerntime)
install(EXPORT kerntimeTargets
  NAMESPACE kerntime::
  DESTINATION ${KERNTIME_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kerntimeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kerntimeConfig.cmake
  INSTALL_DESTINATION ${KERNTIME_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kerntimeConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/kerntimeConfig.cmake
  ${PROJECT_BINARY_DIR}/kerntimeConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/kerntimeRegression.cmake
  DESTINATION ${KERNTIME_CMAKE_DIR})
# share/doc/kerntime/LICENSE: a binary package carries its license (tests/consumer checks it).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Shell completion where bash-completion and zsh look for it (src/cli/CMakeLists.txt writes it).
if(TARGET kerntime_completions)
  install(FILES ${PROJECT_BINARY_DIR}/completions/kerntime.bash
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME kerntime)
  install(FILES ${PROJECT_BINARY_DIR}/completions/_kerntime
    DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
endif()
