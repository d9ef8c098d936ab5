// SPDX-License-Identifier: Apache-2.0
// A program that knows nothing of kerntime and meets a GPU fault the ways programs do, for
// `kerntime run`'s fault tests: N kernels on a stream, synchronized; then, inside the NVTX range
// "step", a kernel that faults; the stream's synchronization returns the error, and the program
//   return    prints it and exits with status 3 (a C++ program checking its CUDA calls),
//   carry_on  prints it, keeps calling CUDA (every call fails) and exits with status 0,
//   abort     prints it and calls abort() (an assert on a CUDA error),
//   busy      as return, with three more kernels launched in "step" before the faulting one and
//             not synchronized: four were running, and CUPTI cannot tell which faulted.
// It prints the stream and its thread's id first, so the test can check the report names them.
//
//   fault_target END KIND [N]     KIND: illegal_address, misaligned_address, device_assert, trap
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include "faulting_kernels.hpp"

__global__ void fault_target_work(float* data) {
  if (threadIdx.x == 0) data[blockIdx.x] += 1.0f;
}

namespace {

using kerntime::testing::Fault;

bool parse_fault(const std::string& text, Fault& fault) {
  if (text == "illegal_address") {
    fault = Fault::illegal_address;
  } else if (text == "misaligned_address") {
    fault = Fault::misaligned_address;
  } else if (text == "device_assert") {
    fault = Fault::device_assert;
  } else if (text == "trap") {
    fault = Fault::trap;
  } else {
    return false;
  }
  return true;
}

int fail(const char* what, cudaError_t status) {
  std::fprintf(stderr, "fault_target: %s: %s\n", what, cudaGetErrorString(status));
  return 90;
}

}  // namespace

int main(int argc, char** argv) {
  Fault fault{};
  if (argc < 3 || !parse_fault(argv[2], fault)) {
    std::fprintf(stderr, "usage: fault_target return|carry_on|abort|busy KIND [N]\n");
    return 2;
  }
  const std::string end = argv[1];
  const int n = argc > 3 ? std::atoi(argv[3]) : 10;
  float* data = nullptr;
  if (const cudaError_t s = cudaMalloc(&data, 64 * sizeof(float)); s != cudaSuccess) {
    return fail("cudaMalloc", s);
  }
  cudaStream_t stream = nullptr;
  if (const cudaError_t s = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      s != cudaSuccess) {
    return fail("cudaStreamCreate", s);
  }
  std::printf("stream %p\nthread %ld\n", static_cast<void*>(stream), syscall(SYS_gettid));
  std::fflush(stdout);
  for (int i = 0; i < n; ++i)
    fault_target_work<<<4, 32, 0, stream>>>(data);
  if (const cudaError_t s = cudaStreamSynchronize(stream); s != cudaSuccess) {
    return fail("cudaStreamSynchronize before the fault", s);
  }
  nvtxRangePushA("step");
  if (end == "busy") {
    for (int i = 0; i < 3; ++i)
      fault_target_work<<<4, 32, 0, stream>>>(data);
  }
  kerntime::testing::launch_faulting_kernel(fault, stream);
  nvtxRangePop();
  const cudaError_t status = cudaStreamSynchronize(stream);
  std::printf("fault_target: %s\n", cudaGetErrorName(status));
  std::fflush(stdout);
  if (status != kerntime::testing::error_of(fault)) return 91;
  if (end == "abort") std::abort();
  if (end == "carry_on") {
    // A program that logs the error and goes on: every later call fails the same way.
    for (int i = 0; i < 3; ++i) {
      fault_target_work<<<1, 32, 0, stream>>>(data);
      const cudaError_t again = cudaStreamSynchronize(stream);
      std::printf("fault_target: still %s\n", cudaGetErrorName(again));
    }
    return 0;
  }
  return 3;
}
