// SPDX-License-Identifier: Apache-2.0
// The CUDA and cuBLAS objects the tracing examples use, freed on every way out (exceptions
// included), and their calls checked the way kerntime's are: a failure throws kerntime::Error
// naming the call.
#pragma once

#include <cstddef>
#include <cublas_v2.h>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>

namespace trace_examples {

inline void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw kerntime::Error(std::string{what} + " failed: " + cudaGetErrorName(error) + " (" +
                          cudaGetErrorString(error) + ")");
  }
}

inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw kerntime::Error(std::string{what} + " failed: " + cublasGetStatusName(status) + " (" +
                          cublasGetStatusString(status) + ")");
  }
}

/// cudaMalloc'ed floats.
class DeviceFloats {
 public:
  explicit DeviceFloats(std::size_t count) : count_(count) {
    void* pointer = nullptr;
    check(cudaMalloc(&pointer, bytes()), "cudaMalloc");
    data_ = static_cast<float*>(pointer);
  }
  ~DeviceFloats() { cudaFree(data_); }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  float* get() const { return data_; }
  std::size_t bytes() const { return count_ * sizeof(float); }

 private:
  std::size_t count_;
  float* data_ = nullptr;
};

/// Pinned host floats: copies from and to them run asynchronously at full bandwidth.
class PinnedFloats {
 public:
  explicit PinnedFloats(std::size_t count) : count_(count) {
    void* pointer = nullptr;
    check(cudaMallocHost(&pointer, bytes()), "cudaMallocHost");
    data_ = static_cast<float*>(pointer);
  }
  ~PinnedFloats() { cudaFreeHost(data_); }
  PinnedFloats(const PinnedFloats&) = delete;
  PinnedFloats& operator=(const PinnedFloats&) = delete;
  float* get() const { return data_; }
  std::size_t bytes() const { return count_ * sizeof(float); }

 private:
  std::size_t count_;
  float* data_ = nullptr;
};

/// A non-blocking stream: it does not wait for the legacy default stream.
class Stream {
 public:
  Stream() {
    check(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~Stream() { cudaStreamDestroy(handle_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return handle_; }

 private:
  cudaStream_t handle_ = nullptr;
};

/// A cuBLAS handle bound to one stream.
class Cublas {
 public:
  explicit Cublas(cudaStream_t stream) {
    check(cublasCreate(&handle_), "cublasCreate");
    check(cublasSetStream(handle_, stream), "cublasSetStream");
  }
  ~Cublas() { cublasDestroy(handle_); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  /// C = A * B for row-major m x k A, k x n B, m x n C. cuBLAS is column-major, and a row-major
  /// matrix is its transpose, so this computes C^T = B^T * A^T, which needs no transposition.
  void sgemm_row_major(int m, int n, int k, const float* a, const float* b, float* c) const {
    const float alpha = 1.0f;
    const float beta = 0.0f;
    check(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k, &beta, c, n),
          "cublasSgemm");
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace trace_examples
