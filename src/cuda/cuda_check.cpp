// SPDX-License-Identifier: Apache-2.0
#include "cuda/cuda_check.hpp"

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>

namespace kerntime::cuda {

bool is_startup_error(cudaError_t error) {
  switch (error) {
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorInitializationError:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
      return true;
    default:
      return false;
  }
}

std::string_view default_hint(cudaError_t error) {
  switch (error) {
    case cudaErrorMemoryAllocation:
      return "The GPU is out of memory: free device memory or use smaller problems.";
    case cudaErrorInvalidResourceHandle:
      return "A stream or event handed to kerntime was destroyed, or belongs to another device "
             "than the one current on this thread.";
    case cudaErrorInvalidDevice:
      return "The device index is not one of the visible devices; see 'kerntime info'.";
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorIllegalInstruction:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
      return "A kernel faulted earlier and the CUDA context is unusable: run the program under "
             "compute-sanitizer to find the faulting kernel.";
    case cudaErrorLaunchTimeout:
      return "A kernel ran longer than the display watchdog allows; use a GPU without a display.";
    case cudaErrorCudartUnloading:
      return "CUDA is shutting down: time GPU work before the end of main(), not from static "
             "destructors.";
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
      return "Event timing cannot run inside stream capture; time the graph's launch instead.";
    default:
      return "Check the call's arguments; CUDA_LAUNCH_BLOCKING=1 makes the failing launch report "
             "its own error.";
  }
}

std::string describe_cuda_error(cudaError_t error, std::string_view call, std::string_view hint) {
  std::string message{call};
  message += " failed: ";
  if (is_startup_error(error)) {
    const GpuStatus status = query_gpu_status();
    if (!status.usable()) {
      message += status.message;
      return message;
    }
  }
  message += cudaGetErrorName(error);
  message += " (";
  message += cudaGetErrorString(error);
  message += "). ";
  message += hint.empty() ? default_hint(error) : hint;
  return message;
}

void throw_cuda_error(cudaError_t error, std::string_view call, std::string_view hint) {
  throw Error(describe_cuda_error(error, call, hint));
}

}  // namespace kerntime::cuda

namespace kerntime {

void check_cuda_call(cudaError_t error, std::string_view call) {
  cuda::check_cuda(error, call);
}

}  // namespace kerntime
