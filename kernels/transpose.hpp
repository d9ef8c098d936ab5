// SPDX-License-Identifier: Apache-2.0
// Matrix transpose, naive and through a shared-memory tile: the same bytes moved, very different
// times, because only the tiled version writes memory in coalesced rows.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Bytes one transpose of a rows x cols float matrix moves through DRAM: read once, written once.
constexpr std::size_t transpose_bytes(std::size_t rows, std::size_t cols) {
  return 2 * rows * cols * sizeof(float);
}

/// Enqueues out = transpose(in): `in` is rows x cols and `out` cols x rows, both row-major
/// device arrays with no padding, not overlapping.
///
/// Naive: each thread reads along a row of `in` (coalesced) and writes down a column of `out`
/// (a 4-byte write per 32-byte sector). Launch: 32 x 8 threads per block, each thread moves 4
/// elements of a 32 x 32 tile; grid ceil(cols / 32) x ceil(rows / 32), so rows may be at most
/// 2,097,120 (65535 tiles). Does nothing when rows or cols is 0. Throws kerntime::Error when
/// the matrix is too tall or the launch fails.
void launch_transpose_naive(std::size_t rows, std::size_t cols, const float* in, float* out,
                            cudaStream_t stream);

/// Tiled: the block reads a 32 x 32 tile in coalesced rows into shared memory, then writes it
/// out in coalesced rows of `out`. The tile is 32 x 33 floats: the padding column puts the
/// elements of a tile column in 32 different shared-memory banks, so reading a column costs one
/// transaction instead of 32. Launch configuration and limits as launch_transpose_naive, plus
/// 4,224 bytes of static shared memory per block.
void launch_transpose_tiled(std::size_t rows, std::size_t cols, const float* in, float* out,
                            cudaStream_t stream);

}  // namespace kerntime::samples
