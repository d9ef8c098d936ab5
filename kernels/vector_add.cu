// SPDX-License-Identifier: Apache-2.0
#include <cstddef>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/vector_add.hpp"

namespace kerntime::samples {

// No __restrict__: c may alias a or b, and each element is read before it is written.
__global__ void vector_add_kernel(std::size_t n, const float* a, const float* b, float* c) {
  const detail::PlantedSlowdown planted;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    c[i] = a[i] + b[i];
  }
}

void launch_vector_add(std::size_t n, const float* a, const float* b, float* c,
                       cudaStream_t stream) {
  if (n == 0) return;
  vector_add_kernel<<<detail::grid_stride_blocks(n), detail::kBlockSize, 0, stream>>>(n, a, b, c);
  detail::check_launch("vector_add");
}

}  // namespace kerntime::samples
