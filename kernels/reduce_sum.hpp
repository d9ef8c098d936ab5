// SPDX-License-Identifier: Apache-2.0
// Sum of a float array: a reduction with warp shuffles, shared memory and atomics.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Bytes one launch_reduce_sum(n) moves through DRAM: reads x once (the 4-byte result is noise).
constexpr std::size_t reduce_sum_bytes(std::size_t n) {
  return n * sizeof(float);
}

/// Floating-point operations of one launch_reduce_sum(n): one add per element.
constexpr std::size_t reduce_sum_flops(std::size_t n) {
  return n;
}

/// Threads per block and most blocks of launch_reduce_sum; they set the accuracy bound below.
inline constexpr std::size_t kReduceSumBlockSize = 256;
inline constexpr std::size_t kReduceSumMaxBlocks = 1024;

/// Longest chain of float additions any input passes through in launch_reduce_sum(n): its
/// thread's sequential sum (at most ceil(n / (256 * 1024)) adds), two 5-level warp-shuffle
/// trees, then up to 1024 atomic adds into the result. The computed sum s of x[0..n) then obeys
/// |s - exact| <= h * 2^-24 * sum |x[i]| / (1 - h * 2^-24) with h = reduce_sum_addition_depth(n)
/// (Higham, "Accuracy and Stability of Numerical Algorithms", section 4.2).
constexpr std::size_t reduce_sum_addition_depth(std::size_t n) {
  const std::size_t per_grid = kReduceSumBlockSize * kReduceSumMaxBlocks;
  return (n + per_grid - 1) / per_grid + 10 + kReduceSumMaxBlocks;
}

/// Enqueues *result = x[0] + ... + x[n-1] on device memory. Two operations go on `stream`, so a
/// timer around the call sees both: a 4-byte cudaMemsetAsync that zeroes *result, then the
/// kernel. Each thread sums a grid-stride slice, each warp combines its threads with shuffles,
/// the block combines its warps through shared memory, and one atomicAdd per block adds the
/// block's sum to *result. The order of those atomic adds varies, so the last bits of the result
/// can differ from run to run (see reduce_sum_addition_depth() for the bound).
///
/// Launch: 256 threads per block, ceil(n / 256) blocks up to 1024. With n == 0 only the memset
/// runs (the sum is 0). Throws kerntime::Error when the memset or the launch fails.
void launch_reduce_sum(std::size_t n, const float* x, float* result, cudaStream_t stream);

}  // namespace kerntime::samples
