// SPDX-License-Identifier: Apache-2.0
#include "cuda/device_guard.hpp"

#include <string>

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"

namespace kerntime::cuda {

DeviceGuard::DeviceGuard(int device) {
  check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
  if (device != previous_) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  }
}

DeviceGuard::~DeviceGuard() {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current != previous_) cudaSetDevice(previous_);
}

}  // namespace kerntime::cuda
