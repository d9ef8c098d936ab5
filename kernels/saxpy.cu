// SPDX-License-Identifier: Apache-2.0
#include <cstddef>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/saxpy.hpp"

namespace kerntime::samples {

__global__ void saxpy_kernel(std::size_t n, float a, const float* __restrict__ x,
                             float* __restrict__ y) {
  const detail::PlantedSlowdown planted;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = a * x[i] + y[i];
  }
}

void launch_saxpy(std::size_t n, float a, const float* x, float* y, cudaStream_t stream) {
  if (n == 0) return;
  saxpy_kernel<<<detail::grid_stride_blocks(n), detail::kBlockSize, 0, stream>>>(n, a, x, y);
  detail::check_launch("saxpy");
}

}  // namespace kerntime::samples
