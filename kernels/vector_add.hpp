// SPDX-License-Identifier: Apache-2.0
// Element-wise vector addition: the "hello world" of CUDA, memory-bound.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Bytes one launch_vector_add(n) moves through DRAM: reads a and b, writes c.
constexpr std::size_t vector_add_bytes(std::size_t n) {
  return 3 * n * sizeof(float);
}

/// Floating-point operations of one launch_vector_add(n): one add per element.
constexpr std::size_t vector_add_flops(std::size_t n) {
  return n;
}

/// Enqueues c[i] = a[i] + b[i] for i < n on device arrays (c may alias a or b). Each result is
/// the correctly rounded float sum, bit for bit what the CPU computes.
///
/// Launch: grid-stride, 256 threads per block, one element per thread up to 8192 blocks.
/// Does nothing when `n` is 0. Throws kerntime::Error when the launch fails.
void launch_vector_add(std::size_t n, const float* a, const float* b, float* c,
                       cudaStream_t stream);

}  // namespace kerntime::samples
