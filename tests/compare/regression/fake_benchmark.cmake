# SPDX-License-Identifier: Apache-2.0
# Stands in for a benchmark in the tests of kerntime_add_regression_test(): copies the report
# REPORT to the file named after --output, as a real benchmark would write its measurements.
# Usage: cmake -DREPORT=<fixture.json> -P fake_benchmark.cmake -- --output <file>
set(output "")
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if("${CMAKE_ARGV${i}}" STREQUAL "--output")
    math(EXPR next "${i} + 1")
    set(output "${CMAKE_ARGV${next}}")
  endif()
endforeach()
if(output STREQUAL "")
  message(FATAL_ERROR "fake benchmark: no --output <file> given")
endif()
file(COPY_FILE "${REPORT}" "${output}")
