// SPDX-License-Identifier: Apache-2.0
#include "kernels/detail/launch.hpp"

#include <algorithm>
#include <string>

#include <kerntime/error.hpp>

namespace kerntime::samples::detail {
namespace {

// What a user can do about an error, in the words of the situation that causes it most often.
const char* hint_for(cudaError_t error) {
  switch (error) {
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      return "this build has no code for the current GPU; reconfigure with "
             "-DCMAKE_CUDA_ARCHITECTURES=native or add the GPU's compute capability";
    case cudaErrorInvalidConfiguration:
      return "the grid or block exceeds this device's limits; check the sizes passed to the "
             "launcher";
    case cudaErrorLaunchOutOfResources:
      return "the kernel needs more registers or shared memory than the device offers";
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorInitializationError:
      return "no usable GPU; 'kerntime info' or kerntime::require_gpu() explains why";
    case cudaErrorInvalidResourceHandle:
      return "the stream was destroyed or belongs to another device";
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
      return "a kernel accessed invalid memory, possibly an earlier one; the CUDA context is "
             "now unusable; check buffer sizes and run under compute-sanitizer";
    default:
      return "the error may come from an earlier CUDA call or asynchronous work; "
             "compute-sanitizer shows which call failed first";
  }
}

}  // namespace

unsigned int grid_stride_blocks(std::size_t items, unsigned int per_block,
                                unsigned int max_blocks) {
  const std::size_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned int>(std::clamp<std::size_t>(blocks, 1, max_blocks));
}

unsigned int grid_blocks_checked(std::size_t items, unsigned int per_block, unsigned int limit,
                                 const char* kernel, const char* what) {
  const std::size_t blocks = std::max<std::size_t>((items + per_block - 1) / per_block, 1);
  if (blocks > limit) {
    throw Error(std::string{kernel} + ": " + what + " = " + std::to_string(items) +
                " is too large; one launch covers at most " +
                std::to_string(std::size_t{limit} * per_block) + " " + what +
                " (the grid's limit of " + std::to_string(limit) + " blocks of " +
                std::to_string(per_block) + "); split the work into several launches");
  }
  return static_cast<unsigned int>(blocks);
}

std::string cuda_error_message(const char* kernel, const char* what, cudaError_t error) {
  return std::string{kernel} + ": " + what + " failed with " + cudaGetErrorName(error) + " (" +
         cudaGetErrorString(error) + "); " + hint_for(error);
}

void check_cuda(cudaError_t error, const char* kernel, const char* what) {
  if (error != cudaSuccess) throw Error(cuda_error_message(kernel, what, error));
}

void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), kernel, "the launch");
}

}  // namespace kerntime::samples::detail
