# SPDX-License-Identifier: Apache-2.0
# Runs the quickstart for `cmake --workflow --preset quickstart` (the target run_quickstart):
#   cmake -DQUICKSTART=<quickstart executable> -P run_quickstart.cmake
# Without a usable GPU the quickstart writes one line naming the cause and exits with
# kerntime::kNoGpuExitStatus (2). That line is then the last one the user sees: this step ends
# there, instead of failing the build and burying the cause in a block of ninja's messages.
# Any other failure of the quickstart fails the step.
if(NOT DEFINED QUICKSTART)
  message(FATAL_ERROR "run_quickstart.cmake needs -DQUICKSTART=<path of the quickstart>")
endif()
execute_process(COMMAND "${QUICKSTART}" RESULT_VARIABLE status)
if(status EQUAL 2)
  return()  # no usable GPU: the quickstart said why, in one line
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the quickstart failed (exit status ${status}); its message is above")
endif()
