// SPDX-License-Identifier: Apache-2.0
// Insertion sort of many short segments in place: a kernel whose time depends on its input (a
// sorted segment costs one comparison per element, a random one about a quarter of its length
// in moves) and which overwrites it, so a benchmark must restore the input before every sample
// (State::set_setup) or it times sorting sorted data.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Elements per segment; each thread sorts one segment.
inline constexpr std::size_t kSortSegment = 32;

/// Bytes one launch_segment_sort of n elements of `element_bytes` moves: each element is read and
/// written once (the segment stays in the thread's registers and L1 meanwhile).
constexpr std::size_t segment_sort_bytes(std::size_t n, std::size_t element_bytes) {
  return 2 * n * element_bytes;
}

/// Sorts each segment data[32 s, 32 s + 32) ascending, in place. `n` must be a multiple of
/// kSortSegment (throws kerntime::Error otherwise, before launching). Launch: one thread per
/// segment, 256 threads per block; does nothing when n is 0. Throws kerntime::Error when the
/// launch fails.
void launch_segment_sort(float* data, std::size_t n, cudaStream_t stream);
void launch_segment_sort(__half* data, std::size_t n, cudaStream_t stream);
void launch_segment_sort(std::int8_t* data, std::size_t n, cudaStream_t stream);
void launch_segment_sort(std::int32_t* data, std::size_t n, cudaStream_t stream);

}  // namespace kerntime::samples
