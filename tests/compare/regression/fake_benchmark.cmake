# SPDX-License-Identifier: Apache-2.0
# Stands in for a benchmark in the tests of kerntime_add_regression_test(): copies the report
# REPORT to the file named after --output, as a real benchmark would write its measurements.
# Takes --processes <n> as the benchmark runner does (the fixture already holds its runs).
# Usage: cmake -DREPORT=<fixture.json> -P fake_benchmark.cmake -- [--processes <n>] --output <file>
set(output "")
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if("${CMAKE_ARGV${i}}" STREQUAL "--output")
    math(EXPR next "${i} + 1")
    set(output "${CMAKE_ARGV${next}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--processes")
    math(EXPR next "${i} + 1")
    if(NOT "${CMAKE_ARGV${next}}" MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "fake benchmark: --processes needs a positive count")
    endif()
  endif()
endforeach()
if(output STREQUAL "")
  message(FATAL_ERROR "fake benchmark: no --output <file> given")
endif()
file(COPY_FILE "${REPORT}" "${output}")
