# SPDX-License-Identifier: Apache-2.0
# kerntime_add_regression_test(): a CTest test that runs a benchmark and compares its report with
# a baseline kept in the repository (docs/ci.md). Shipped in the installed package and included
# by kerntimeConfig.cmake, so `find_package(kerntime)` is enough; kerntime's own CMakeLists.txt
# includes it too, so a project that adds kerntime with add_subdirectory() or FetchContent has it.
#
#   kerntime_add_regression_test(
#     NAME <test-name>
#     COMMAND <benchmark> [args...]      # a target name or a program; runs in WORKING_DIRECTORY
#     BASELINE <file.json>               # relative paths are relative to the calling CMakeLists
#     [THRESHOLD <spec>...]              # each becomes --threshold <spec>: 3%, 'gemm/*=10%'
#     [COMPARE_ARGS <arg>...]            # more `kerntime compare` options, e.g. --fail-on-removed
#     [PROCESSES <n>]                    # appends `--processes <n>` (a kerntime benchmark runner:
#                                        # n child processes, one run each); without it the runner's
#                                        # default (5) applies; KERNTIME_BENCHMARK_PROCESSES in
#                                        # the environment at test time overrides both
#     [REPORT_ARG <arg>]                 # how the benchmark is told where to write its report:
#                                        # "--output" (default) appends `--output <file>`; an arg
#                                        # ending in '=' appends `<arg><file>` (--report=<file>)
#     [WORKING_DIRECTORY <dir>]
#     [LABELS <label>...]
#     [TIMEOUT <seconds>]
#     [NO_GPU_CHECK])                    # skip the `kerntime info` probe (tests of the plumbing)
#
# The benchmark measures every entry in several processes (runs) so that the comparison judges
# each entry at the noise between processes (docs/ci.md); a one-process report still works, with
# the allowance for one run per side. The test first runs `kerntime info`; when it reports no usable GPU (exit status 2) the test is
# skipped with that reason, unless KERNTIME_REQUIRE_GPU=1 is set, which makes it fail (a GPU CI
# runner must never skip silently). With KERNTIME_UPDATE_BASELINE=1 in the environment the test
# writes the new report over the baseline instead of comparing: the deliberate way to update it.
#
# The kerntime executable is KERNTIME_EXECUTABLE if set, else kerntime::cli (the imported
# target of the installed package, or the alias of the kerntime_cli target when kerntime is part
# of the build).

# The same file is the driver script that the test runs with `cmake -P`.
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED KERNTIME_REGRESSION_SETTINGS)
  include("${KERNTIME_REGRESSION_SETTINGS}")

  # cmake -P can only set its exit status with cmake_language(EXIT) (CMake 3.29); older versions
  # end with status 0 and the SKIP_REGULAR_EXPRESSION below recognizes the message.
  macro(_kerntime_skip reason)
    message("kerntime-regression: SKIPPED: ${reason}")
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
      cmake_language(EXIT 77)
    endif()
    return()
  endmacro()
  # The reason goes out on one line of its own; FATAL_ERROR would wrap it inside CMake's
  # "CMake Error at" block, where CI logs are hard to search. A function, not a macro, and each
  # argument read as ARGV<i>: an unquoted ${ARGV} would split the text at every ';' and drop it.
  function(_kerntime_fail)
    set(reason "")
    math(EXPR last "${ARGC} - 1")
    foreach(i RANGE ${last})
      string(APPEND reason "${ARGV${i}}")
    endforeach()
    message("kerntime-regression: FAILED: ${reason}")
    message(FATAL_ERROR "kerntime-regression: ${_kt_name} failed")
  endfunction()

  if(NOT _kt_no_gpu_check)
    execute_process(COMMAND "${_kt_kerntime}" info
      RESULT_VARIABLE _kt_status OUTPUT_VARIABLE _kt_out ERROR_VARIABLE _kt_err)
    if(_kt_status EQUAL 2)
      string(STRIP "${_kt_err}" _kt_err)
      if("$ENV{KERNTIME_REQUIRE_GPU}" STREQUAL "1")
        _kerntime_fail("no usable GPU but KERNTIME_REQUIRE_GPU=1: ${_kt_err}")
      endif()
      _kerntime_skip("no usable GPU (${_kt_err})")
    elseif(NOT _kt_status EQUAL 0)
      _kerntime_fail("'${_kt_kerntime} info' failed (${_kt_status}): ${_kt_out}${_kt_err}")
    endif()
  endif()

  if(NOT EXISTS "${_kt_baseline}" AND NOT "$ENV{KERNTIME_UPDATE_BASELINE}" STREQUAL "1")
    _kerntime_fail("baseline ${_kt_baseline} does not exist. Create it with: "
                   "KERNTIME_UPDATE_BASELINE=1 ctest -R '^${_kt_name}$'")
  endif()

  get_filename_component(_kt_report_dir "${_kt_report}" DIRECTORY)
  file(MAKE_DIRECTORY "${_kt_report_dir}")
  file(REMOVE "${_kt_report}")
  set(_kt_bench ${_kt_command})
  if(NOT "$ENV{KERNTIME_BENCHMARK_PROCESSES}" STREQUAL "")
    set(_kt_processes "$ENV{KERNTIME_BENCHMARK_PROCESSES}")
  endif()
  if(NOT "${_kt_processes}" STREQUAL "")
    list(APPEND _kt_bench --processes "${_kt_processes}")
  endif()
  if(_kt_report_arg MATCHES "=$")
    list(APPEND _kt_bench "${_kt_report_arg}${_kt_report}")
  else()
    list(APPEND _kt_bench "${_kt_report_arg}" "${_kt_report}")
  endif()
  list(JOIN _kt_bench " " _kt_bench_text)
  message("kerntime-regression: running ${_kt_bench_text}")
  execute_process(COMMAND ${_kt_bench} WORKING_DIRECTORY "${_kt_working_directory}"
    RESULT_VARIABLE _kt_status)
  if(NOT _kt_status EQUAL 0)
    _kerntime_fail("the benchmark failed (${_kt_status}).")
  endif()
  if(NOT EXISTS "${_kt_report}")
    _kerntime_fail("the benchmark wrote no report at ${_kt_report}; "
                   "does it take '${_kt_report_arg} <file>'? Set REPORT_ARG.")
  endif()

  if("$ENV{KERNTIME_UPDATE_BASELINE}" STREQUAL "1")
    get_filename_component(_kt_baseline_dir "${_kt_baseline}" DIRECTORY)
    file(MAKE_DIRECTORY "${_kt_baseline_dir}")
    file(COPY_FILE "${_kt_report}" "${_kt_baseline}")
    message("kerntime-regression: KERNTIME_UPDATE_BASELINE=1: wrote ${_kt_baseline}; review and "
            "commit it.")
    return()
  endif()

  set(_kt_compare "${_kt_kerntime}" compare "${_kt_baseline}" "${_kt_report}")
  foreach(_kt_threshold IN LISTS _kt_thresholds)
    list(APPEND _kt_compare --threshold "${_kt_threshold}")
  endforeach()
  list(APPEND _kt_compare ${_kt_compare_args})
  execute_process(COMMAND ${_kt_compare} RESULT_VARIABLE _kt_status)
  if(_kt_status EQUAL 1)
    _kerntime_fail("${_kt_name} regressed against ${_kt_baseline}; see the table above. "
                   "If the change is intended, update the baseline with: "
                   "KERNTIME_UPDATE_BASELINE=1 ctest -R '^${_kt_name}$'")
  elseif(NOT _kt_status EQUAL 0)
    _kerntime_fail("kerntime compare could not compare (${_kt_status}); "
                   "see its message above.")
  endif()
  return()
endif()

include_guard(GLOBAL)

# Writes a list as bracket arguments, which keep spaces, semicolons and quotes intact.
function(_kerntime_bracket_list out)
  set(text "")
  foreach(item IN LISTS ARGN)
    string(APPEND text " [==[${item}]==]")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(kerntime_add_regression_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "NO_GPU_CHECK"
    "NAME;BASELINE;REPORT_ARG;WORKING_DIRECTORY;TIMEOUT;PROCESSES"
    "COMMAND;THRESHOLD;COMPARE_ARGS;LABELS")
  foreach(required NAME COMMAND BASELINE)
    if(NOT arg_${required})
      message(FATAL_ERROR "kerntime_add_regression_test: ${required} is required.")
    endif()
  endforeach()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kerntime_add_regression_test(${arg_NAME}): unknown arguments "
                        "${arg_UNPARSED_ARGUMENTS}.")
  endif()
  if(DEFINED arg_PROCESSES AND NOT arg_PROCESSES MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "kerntime_add_regression_test(${arg_NAME}): PROCESSES must be a positive "
                        "count, got '${arg_PROCESSES}'.")
  endif()
  if(NOT DEFINED arg_REPORT_ARG)
    set(arg_REPORT_ARG --output)
  endif()
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()

  if(KERNTIME_EXECUTABLE)
    set(kerntime "${KERNTIME_EXECUTABLE}")
  elseif(TARGET kerntime::cli)
    set(kerntime "$<TARGET_FILE:kerntime::cli>")
  else()
    message(FATAL_ERROR "kerntime_add_regression_test(${arg_NAME}): no kerntime executable: set "
                        "KERNTIME_EXECUTABLE, or find_package(kerntime) (or add kerntime with "
                        "add_subdirectory or FetchContent) first.")
  endif()

  # A target name as the benchmark means its built file, as in add_test().
  list(GET arg_COMMAND 0 program)
  if(TARGET "${program}")
    list(REMOVE_AT arg_COMMAND 0)
    list(PREPEND arg_COMMAND "$<TARGET_FILE:${program}>")
  endif()

  cmake_path(ABSOLUTE_PATH arg_BASELINE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
             NORMALIZE OUTPUT_VARIABLE baseline)
  set(report "${CMAKE_CURRENT_BINARY_DIR}/kerntime-regression/${arg_NAME}.json")

  _kerntime_bracket_list(command_text ${arg_COMMAND})
  _kerntime_bracket_list(threshold_text ${arg_THRESHOLD})
  _kerntime_bracket_list(compare_text ${arg_COMPARE_ARGS})
  set(no_gpu_check OFF)
  if(arg_NO_GPU_CHECK)
    set(no_gpu_check ON)
  endif()
  set(settings "${CMAKE_CURRENT_BINARY_DIR}/kerntime-regression/${arg_NAME}-$<CONFIG>.cmake")
  file(GENERATE OUTPUT "${settings}" CONTENT "# Generated by kerntime_add_regression_test().
set(_kt_name [==[${arg_NAME}]==])
set(_kt_kerntime [==[${kerntime}]==])
set(_kt_command${command_text})
set(_kt_baseline [==[${baseline}]==])
set(_kt_report [==[${report}]==])
set(_kt_report_arg [==[${arg_REPORT_ARG}]==])
set(_kt_processes [==[${arg_PROCESSES}]==])
set(_kt_thresholds${threshold_text})
set(_kt_compare_args${compare_text})
set(_kt_working_directory [==[${arg_WORKING_DIRECTORY}]==])
set(_kt_no_gpu_check ${no_gpu_check})
")
  # This file, wherever it was included from: a variable set beside include_guard() would be
  # unset in a parent directory that calls the function after add_subdirectory(kerntime).
  add_test(NAME "${arg_NAME}"
    COMMAND "${CMAKE_COMMAND}" "-DKERNTIME_REGRESSION_SETTINGS=${settings}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}")
  set_tests_properties("${arg_NAME}" PROPERTIES
    SKIP_RETURN_CODE 77
    SKIP_REGULAR_EXPRESSION "kerntime-regression: SKIPPED"
    TIMEOUT "${arg_TIMEOUT}"
    LABELS "${arg_LABELS}")
endfunction()
