// SPDX-License-Identifier: Apache-2.0
// SAXPY (single-precision a*x plus y), the BLAS level-1 classic; memory-bound.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Bytes one launch_saxpy(n) moves through DRAM: reads x and y, writes y.
constexpr std::size_t saxpy_bytes(std::size_t n) {
  return 3 * n * sizeof(float);
}

/// Floating-point operations of one launch_saxpy(n): a multiply and an add per element.
constexpr std::size_t saxpy_flops(std::size_t n) {
  return 2 * n;
}

/// Enqueues y[i] = a * x[i] + y[i] for i < n on device arrays. The GPU fuses the multiply and
/// add (one rounding), so results can differ from an unfused CPU computation in the last bit.
///
/// Launch: grid-stride, 256 threads per block, one element per thread up to 8192 blocks.
/// Does nothing when `n` is 0. Throws kerntime::Error when the launch fails.
void launch_saxpy(std::size_t n, float a, const float* x, float* y, cudaStream_t stream);

}  // namespace kerntime::samples
