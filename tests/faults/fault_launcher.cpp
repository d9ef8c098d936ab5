// SPDX-License-Identifier: Apache-2.0
// The faulting kernels behind a C entry point, for Python programs (ctypes) that fault the way
// a custom extension with a bad pointer does: on the stream the caller passes (PyTorch's
// torch.cuda.Stream.cuda_stream), or on one of this library's own (for JAX, whose streams a
// program never sees). And NVTX ranges, for programs whose framework has no NVTX of its own.
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include "faulting_kernels.hpp"

extern "C" __attribute__((visibility("default"))) int kerntime_launch_fault(int kind,
                                                                            void* stream) {
  using kerntime::testing::Fault;
  const Fault fault = kind == 1   ? Fault::device_assert
                      : kind == 2 ? Fault::trap
                      : kind == 3 ? Fault::misaligned_address
                                  : Fault::illegal_address;
  kerntime::testing::launch_faulting_kernel(fault, static_cast<cudaStream_t>(stream));
  return static_cast<int>(cudaGetLastError());
}

// A stream of its own, non-blocking, in the device's primary context (the one PyTorch, CuPy and
// JAX use); null when it cannot be made.
extern "C" __attribute__((visibility("default"))) void* kerntime_fault_stream() {
  cudaStream_t stream = nullptr;
  return cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess ? stream
                                                                                  : nullptr;
}

extern "C" __attribute__((visibility("default"))) void kerntime_range_push(const char* name) {
  nvtxRangePushA(name);
}

extern "C" __attribute__((visibility("default"))) void kerntime_range_pop() {
  nvtxRangePop();
}
