# SPDX-License-Identifier: Apache-2.0
# Third-party dependencies: installed packages first (Debian's libfmt-dev, libgtest-dev,
# nlohmann-json3-dev, libcli11-dev), a download only when one is missing.
include(FetchContent)

find_package(CUDAToolkit 12.0 REQUIRED)
find_package(Threads REQUIRED)

# CUDA::nvtx3 exists from CMake 3.25; NVTX3 is header-only, so the toolkit's includes suffice.
if(NOT TARGET CUDA::nvtx3)
  add_library(kerntime_nvtx3 INTERFACE)
  target_include_directories(kerntime_nvtx3 SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})
  add_library(CUDA::nvtx3 ALIAS kerntime_nvtx3)
endif()

FetchContent_Declare(fmt
  URL https://github.com/fmtlib/fmt/releases/download/10.2.1/fmt-10.2.1.zip
  FIND_PACKAGE_ARGS 9)
FetchContent_Declare(nlohmann_json
  URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
  FIND_PACKAGE_ARGS 3.11)
FetchContent_Declare(CLI11
  URL https://github.com/CLIUtils/CLI11/archive/refs/tags/v2.4.2.tar.gz
  FIND_PACKAGE_ARGS 2.1)
FetchContent_MakeAvailable(fmt nlohmann_json CLI11)

if(KERNTIME_BUILD_TESTS)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  FetchContent_Declare(googletest
    URL https://github.com/google/googletest/releases/download/v1.14.0/googletest-1.14.0.tar.gz
    FIND_PACKAGE_ARGS NAMES GTest)
  FetchContent_MakeAvailable(googletest)
  if(NOT TARGET GTest::gtest_main)
    add_library(GTest::gtest_main ALIAS gtest_main)
    add_library(GTest::gmock ALIAS gmock)
  endif()
endif()

# fmt is used header-only and kept out of the exported link interface, so an installed static
# kerntime needs neither fmt nor nlohmann_json in the consumer's build.
if(TARGET fmt::fmt-header-only)
  set(KERNTIME_FMT_TARGET fmt::fmt-header-only)
else()
  set(KERNTIME_FMT_TARGET fmt::fmt)
endif()
