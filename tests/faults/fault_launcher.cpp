// SPDX-License-Identifier: Apache-2.0
// The faulting kernels behind a C entry point, for Python programs (ctypes) that fault the way
// a custom extension with a bad pointer does: on the stream the caller passes (PyTorch's
// torch.cuda.Stream.cuda_stream).
#include <cuda_runtime_api.h>

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
