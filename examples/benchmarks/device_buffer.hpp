// SPDX-License-Identifier: Apache-2.0
// Device memory for the benchmark programs: allocated and zeroed before measuring, freed on
// every way out, exceptions included.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>

namespace kerntime::examples {

inline void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw Error(std::string{what} + " failed: " + cudaGetErrorName(error) + " (" +
                cudaGetErrorString(error) + ")");
  }
}

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    check(cudaMalloc(&pointer_, bytes), "cudaMalloc");
    // Values do not change these kernels' speed; zeros only avoid reading uninitialized memory.
    check(cudaMemset(pointer_, 0, bytes), "cudaMemset");
  }
  ~DeviceBuffer() { cudaFree(pointer_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  template <class T>
  T* as() const {
    return static_cast<T*>(pointer_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void* pointer_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace kerntime::examples
