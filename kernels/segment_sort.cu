// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <string>

#include <kerntime/error.hpp>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/segment_sort.hpp"

namespace kerntime::samples {

template <class T>
__global__ void __launch_bounds__(detail::kBlockSize)
    segment_sort_kernel(T* __restrict__ data, std::size_t segments) {
  const detail::PlantedSlowdown planted;
  const std::size_t segment = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (segment >= segments) return;
  T* const begin = data + segment * kSortSegment;
  T v[kSortSegment];
#pragma unroll
  for (std::size_t i = 0; i < kSortSegment; ++i)
    v[i] = begin[i];
  // Each element moves left past the larger ones before it: no move at all when sorted.
  for (int i = 1; i < static_cast<int>(kSortSegment); ++i) {
    const T x = v[i];
    int j = i - 1;
    while (j >= 0 && x < v[j]) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
#pragma unroll
  for (std::size_t i = 0; i < kSortSegment; ++i)
    begin[i] = v[i];
}

namespace {

template <class T>
void launch(T* data, std::size_t n, cudaStream_t stream) {
  if (n % kSortSegment != 0) {
    throw Error("segment_sort: n = " + std::to_string(n) + " is not a multiple of the segment (" +
                std::to_string(kSortSegment) + " elements)");
  }
  if (n == 0) return;
  const std::size_t segments = n / kSortSegment;
  const unsigned int blocks = detail::grid_blocks_checked(
      segments, detail::kBlockSize, detail::kMaxGridX, "segment_sort", "segments");
  segment_sort_kernel<T><<<blocks, detail::kBlockSize, 0, stream>>>(data, segments);
  detail::check_launch("segment_sort");
}

}  // namespace

void launch_segment_sort(float* data, std::size_t n, cudaStream_t stream) {
  launch(data, n, stream);
}
void launch_segment_sort(__half* data, std::size_t n, cudaStream_t stream) {
  launch(data, n, stream);
}
void launch_segment_sort(std::int8_t* data, std::size_t n, cudaStream_t stream) {
  launch(data, n, stream);
}
void launch_segment_sort(std::int32_t* data, std::size_t n, cudaStream_t stream) {
  launch(data, n, stream);
}

}  // namespace kerntime::samples
