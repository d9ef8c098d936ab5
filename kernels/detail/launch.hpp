// SPDX-License-Identifier: Apache-2.0
// Shared launch helpers of the sample kernels: grid sizing and error reporting. Internal to
// kernels/; users call the launchers in the other headers.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

namespace kerntime::samples::detail {

/// Threads per block of the one-dimensional kernels: a multiple of the warp size that keeps
/// enough blocks resident per SM on every architecture the project builds for.
inline constexpr unsigned int kBlockSize = 256;

/// Upper bound on blocks for grid-stride kernels. 8192 blocks of 256 threads fill an H200
/// (132 SMs x 2048 threads) about eight times over; beyond that, more blocks only add scheduling
/// work, so larger inputs loop instead.
inline constexpr unsigned int kMaxGridStrideBlocks = 8192;

/// Largest gridDim.x and gridDim.y CUDA allows (compute capability 3.0 and later).
inline constexpr unsigned int kMaxGridX = 2147483647u;
inline constexpr unsigned int kMaxGridY = 65535;

/// ceil(items / per_block) blocks, at least 1 and at most `max_blocks`.
unsigned int grid_stride_blocks(std::size_t items, unsigned int per_block = kBlockSize,
                                unsigned int max_blocks = kMaxGridStrideBlocks);

/// ceil(items / per_block) blocks for a grid dimension limited to `limit`. Throws kerntime::Error
/// naming `kernel` and `what` (e.g. "rows") when the count would exceed the limit, because
/// CUDA's own "invalid configuration argument" would not say which size was too large.
unsigned int grid_blocks_checked(std::size_t items, unsigned int per_block, unsigned int limit,
                                 const char* kernel, const char* what);

/// The one-line message for a CUDA `error` raised while `what` ran for `kernel`: the kernel, the
/// CUDA error name and text, and a hint on what to do.
std::string cuda_error_message(const char* kernel, const char* what, cudaError_t error);

/// Throws kerntime::Error with cuda_error_message() unless `error` is cudaSuccess.
void check_cuda(cudaError_t error, const char* kernel, const char* what);

/// Call right after a launch: throws kerntime::Error when cudaGetLastError() reports one.
/// Launch errors (bad configuration, no code for this GPU) surface here, and so do sticky
/// errors left by earlier asynchronous work, which the hint mentions.
void check_launch(const char* kernel);

}  // namespace kerntime::samples::detail
