# SPDX-License-Identifier: Apache-2.0
# KERNTIME_SANITIZE: a -fsanitize= list (address,undefined or thread) for every C++ target of
# the build; the asan and tsan presets set it (docs/hardening.md). nvcc takes no -fsanitize, so
# CUDA sources are compiled without it and targets linked by nvcc link without it: only host
# C++ is checked, which is everything the CPU tests run.
# KERNTIME_BUILD_FUZZERS: the libFuzzer harness of tests/fuzz (clang only); the whole library
# is compiled with coverage for libFuzzer then, so that the fuzzer sees inside the parser.
set(KERNTIME_SANITIZE "" CACHE STRING
    "Sanitizers for C++ code, as -fsanitize= takes them (e.g. address,undefined or thread)")
option(KERNTIME_BUILD_FUZZERS "Build the libFuzzer harness of tests/fuzz (clang only)" OFF)

if(KERNTIME_SANITIZE)
  # Stop at the first report: a sanitizer finding must fail the test, not scroll past.
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${KERNTIME_SANITIZE};-fno-sanitize-recover=all;-fno-omit-frame-pointer>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=${KERNTIME_SANITIZE}>")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12's warnings misfire inside libstdc++ under the sanitizers (std::regex's
    # std::function "may be used uninitialized"; "atomic_thread_fence is not supported with
    # -fsanitize=thread" from <atomic> itself), and -Werror would stop the build on them.
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>")
    if(KERNTIME_SANITIZE MATCHES "thread")
      add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-Wno-tsan>")
    endif()
  endif()
endif()

if(KERNTIME_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "KERNTIME_BUILD_FUZZERS needs clang (libFuzzer); CMAKE_CXX_COMPILER is "
                        "${CMAKE_CXX_COMPILER_ID}. Use the fuzz preset.")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>")
endif()
