// SPDX-License-Identifier: Apache-2.0
// Device-to-device copy: the bandwidth reference the other memory-bound kernels compare to.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Bytes one launch_device_copy(bytes) moves through DRAM: each byte read once, written once.
constexpr std::size_t device_copy_bytes(std::size_t bytes) {
  return 2 * bytes;
}

/// Enqueues a kernel that copies `bytes` from device memory `src` to device memory `dst`, like
/// cudaMemcpyAsync(..., cudaMemcpyDeviceToDevice) but as a kernel a user can read.
///
/// When both pointers are 16-byte aligned (cudaMalloc returns 256-byte aligned memory) the kernel
/// moves 16-byte vectors, the widest load a thread can issue, and copies the last bytes % 16
/// bytes singly; otherwise it falls back to copying single bytes, which is several times slower.
/// The ranges must not overlap. Launch: grid-stride, 256 threads per block, one vector per
/// thread up to 8192 blocks. Does nothing when `bytes` is 0. Throws kerntime::Error when the
/// launch fails.
void launch_device_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

}  // namespace kerntime::samples
