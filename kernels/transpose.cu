// SPDX-License-Identifier: Apache-2.0
#include <cstddef>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/transpose.hpp"

namespace kerntime::samples {

// Both kernels cover a 32 x 32 tile with 32 x 8 threads, each handling every 8th row, so they
// differ only in how the tile is written: the comparison isolates coalescing.
constexpr unsigned int kTile = 32;
constexpr unsigned int kBlockRows = 8;

__global__ void transpose_naive_kernel(std::size_t rows, std::size_t cols,
                                       const float* __restrict__ in, float* __restrict__ out) {
  const detail::PlantedSlowdown planted;
  const std::size_t col = std::size_t{blockIdx.x} * kTile + threadIdx.x;
  const std::size_t row0 = std::size_t{blockIdx.y} * kTile + threadIdx.y;
  if (col < cols) {
    for (unsigned int j = 0; j < kTile; j += kBlockRows) {
      const std::size_t row = row0 + j;
      if (row < rows) out[col * rows + row] = in[row * cols + col];
    }
  }
}

__global__ void transpose_tiled_kernel(std::size_t rows, std::size_t cols,
                                       const float* __restrict__ in, float* __restrict__ out) {
  const detail::PlantedSlowdown planted;
  __shared__ float tile[kTile][kTile + 1];  // +1: see the header on bank conflicts

  // Read the tile starting at (tile_row, tile_col) of `in`, one coalesced row at a time.
  const std::size_t tile_row = std::size_t{blockIdx.y} * kTile;
  const std::size_t tile_col = std::size_t{blockIdx.x} * kTile;
  for (unsigned int j = 0; j < kTile; j += kBlockRows) {
    const std::size_t row = tile_row + threadIdx.y + j;
    const std::size_t col = tile_col + threadIdx.x;
    if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[row * cols + col];
  }
  __syncthreads();

  // Write it to (tile_col, tile_row) of `out`, again one coalesced row at a time: row r of the
  // output tile is column r of the input tile.
  for (unsigned int j = 0; j < kTile; j += kBlockRows) {
    const std::size_t out_row = tile_col + threadIdx.y + j;  // < cols
    const std::size_t out_col = tile_row + threadIdx.x;      // < rows
    if (out_row < cols && out_col < rows) {
      out[out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}

using TransposeKernel = void (*)(std::size_t, std::size_t, const float*, float*);

static void launch_transpose(TransposeKernel kernel, const char* name, std::size_t rows,
                             std::size_t cols, const float* in, float* out, cudaStream_t stream) {
  if (rows == 0 || cols == 0) return;
  const dim3 grid{detail::grid_blocks_checked(cols, kTile, detail::kMaxGridX, name, "cols"),
                  detail::grid_blocks_checked(rows, kTile, detail::kMaxGridY, name, "rows")};
  const dim3 block{kTile, kBlockRows};
  kernel<<<grid, block, 0, stream>>>(rows, cols, in, out);
  detail::check_launch(name);
}

void launch_transpose_naive(std::size_t rows, std::size_t cols, const float* in, float* out,
                            cudaStream_t stream) {
  launch_transpose(transpose_naive_kernel, "transpose_naive", rows, cols, in, out, stream);
}

void launch_transpose_tiled(std::size_t rows, std::size_t cols, const float* in, float* out,
                            cudaStream_t stream) {
  launch_transpose(transpose_tiled_kernel, "transpose_tiled", rows, cols, in, out, stream);
}

}  // namespace kerntime::samples
