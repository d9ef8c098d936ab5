// SPDX-License-Identifier: Apache-2.0
#include <cstddef>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/reduce_sum.hpp"

namespace kerntime::samples {

constexpr unsigned int kWarpSize = 32;
constexpr unsigned int kBlockSize = kReduceSumBlockSize;
constexpr unsigned int kWarpsPerBlock = kBlockSize / kWarpSize;
static_assert(kBlockSize % kWarpSize == 0 && kWarpsPerBlock <= kWarpSize,
              "the second shuffle stage sums one value per warp within a single warp");

// After the loop, lane 0 holds the sum of all 32 lanes' values.
static __device__ __forceinline__ float warp_sum(float value) {
  for (unsigned int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

__global__ void __launch_bounds__(kBlockSize)
    reduce_sum_kernel(std::size_t n, const float* __restrict__ x, float* __restrict__ result) {
  const detail::PlantedSlowdown planted;
  float sum = 0.0f;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    sum += x[i];
  }

  __shared__ float warp_sums[kWarpsPerBlock];
  const unsigned int lane = threadIdx.x % kWarpSize;
  const unsigned int warp = threadIdx.x / kWarpSize;
  sum = warp_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = warp_sum(lane < kWarpsPerBlock ? warp_sums[lane] : 0.0f);
    // One atomic per block instead of a second kernel: blocks finish at different times, so
    // at most 1024 atomics on one address cost less than another launch would.
    if (lane == 0) atomicAdd(result, sum);
  }
}

void launch_reduce_sum(std::size_t n, const float* x, float* result, cudaStream_t stream) {
  detail::check_cuda(cudaMemsetAsync(result, 0, sizeof(float), stream), "reduce_sum",
                     "zeroing the result with cudaMemsetAsync");
  if (n == 0) return;
  const unsigned int blocks = detail::grid_stride_blocks(n, kBlockSize, kReduceSumMaxBlocks);
  reduce_sum_kernel<<<blocks, kBlockSize, 0, stream>>>(n, x, result);
  detail::check_launch("reduce_sum");
}

}  // namespace kerntime::samples
