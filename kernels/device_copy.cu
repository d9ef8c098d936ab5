// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/device_copy.hpp"

namespace kerntime::samples {

constexpr std::size_t kVectorBytes = sizeof(uint4);

__global__ void device_copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src,
                                   std::size_t bytes) {
  const detail::PlantedSlowdown planted;
  const std::size_t vectors = bytes / kVectorBytes;
  const std::size_t first = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = first; i < vectors; i += stride)
    dst[i] = src[i];

  // Fewer than 16 bytes remain after the last whole vector; the first threads take one each.
  const std::size_t tail = vectors * kVectorBytes;
  if (first < bytes - tail) {
    reinterpret_cast<unsigned char*>(dst)[tail + first] =
        reinterpret_cast<const unsigned char*>(src)[tail + first];
  }
}

__global__ void device_copy_unaligned_kernel(unsigned char* __restrict__ dst,
                                             const unsigned char* __restrict__ src,
                                             std::size_t bytes) {
  const detail::PlantedSlowdown planted;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < bytes; i += stride) {
    dst[i] = src[i];
  }
}

static bool vector_aligned(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % kVectorBytes == 0;
}

void launch_device_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (vector_aligned(dst) && vector_aligned(src)) {
    const unsigned int blocks = detail::grid_stride_blocks(bytes / kVectorBytes);
    device_copy_kernel<<<blocks, detail::kBlockSize, 0, stream>>>(
        static_cast<uint4*>(dst), static_cast<const uint4*>(src), bytes);
    detail::check_launch("device_copy");
  } else {
    const unsigned int blocks = detail::grid_stride_blocks(bytes);
    device_copy_unaligned_kernel<<<blocks, detail::kBlockSize, 0, stream>>>(
        static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes);
    detail::check_launch("device_copy (unaligned)");
  }
}

}  // namespace kerntime::samples
