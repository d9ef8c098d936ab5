// SPDX-License-Identifier: Apache-2.0
#include <cstddef>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/sgemm.hpp"

namespace kerntime::samples {

constexpr unsigned int kTile = 32;
constexpr unsigned int kBlockRows = 8;
constexpr unsigned int kRowsPerThread = kTile / kBlockRows;

// BLAS semantics: with beta == 0, C is not read, so NaN or garbage in C cannot leak into it.
static __device__ __forceinline__ float scale_and_add(float alpha, float dot, float beta, float c) {
  return beta == 0.0f ? alpha * dot : alpha * dot + beta * c;
}

__global__ void sgemm_naive_kernel(std::size_t m, std::size_t n, std::size_t k, float alpha,
                                   const float* __restrict__ a, const float* __restrict__ b,
                                   float beta, float* __restrict__ c) {
  const detail::PlantedSlowdown planted;
  const std::size_t row = std::size_t{blockIdx.y} * blockDim.y + threadIdx.y;
  const std::size_t col = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  // Four products' loads issued before their multiply-adds, in source: left to the compiler, the
  // schedule of this loop changed with unrelated code in the kernel (the planted slowdown made it
  // 5 % faster, docs/ci.md), and a sample kernel whose speed depends on its neighbours cannot show
  // a planted regression.
  const float* a_row = a + row * k;
  float dot = 0.0f;
  std::size_t i = 0;
  for (; i + 4 <= k; i += 4) {
    const float a0 = a_row[i], a1 = a_row[i + 1], a2 = a_row[i + 2], a3 = a_row[i + 3];
    const float b0 = b[i * n + col], b1 = b[(i + 1) * n + col], b2 = b[(i + 2) * n + col],
                b3 = b[(i + 3) * n + col];
    dot += a0 * b0;
    dot += a1 * b1;
    dot += a2 * b2;
    dot += a3 * b3;
  }
  for (; i < k; ++i)
    dot += a_row[i] * b[i * n + col];
  c[row * n + col] = scale_and_add(alpha, dot, beta, c[row * n + col]);
}

__global__ void __launch_bounds__(kTile* kBlockRows)
    sgemm_tiled_kernel(std::size_t m, std::size_t n, std::size_t k, float alpha,
                       const float* __restrict__ a, const float* __restrict__ b, float beta,
                       float* __restrict__ c) {
  const detail::PlantedSlowdown planted;
  // No padding column here, unlike the transpose: a warp reads a_tile along a row at one column
  // (a broadcast) and b_tile along a row (32 banks), so no access strides down a column.
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];

  const unsigned int tx = threadIdx.x;
  const unsigned int ty = threadIdx.y;
  const std::size_t tile_row = std::size_t{blockIdx.y} * kTile;
  const std::size_t col = std::size_t{blockIdx.x} * kTile + tx;

  float dot[kRowsPerThread] = {};  // fully unrolled loops below keep it in registers
  for (std::size_t k0 = 0; k0 < k; k0 += kTile) {
    // Each thread stages 4 elements of each tile; zeros outside the matrices add nothing.
#pragma unroll
    for (unsigned int j = 0; j < kRowsPerThread; ++j) {
      const unsigned int r = ty + j * kBlockRows;
      const std::size_t a_row = tile_row + r;
      const std::size_t a_col = k0 + tx;
      a_tile[r][tx] = (a_row < m && a_col < k) ? a[a_row * k + a_col] : 0.0f;
      const std::size_t b_row = k0 + r;
      b_tile[r][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (unsigned int i = 0; i < kTile; ++i) {
      const float b_value = b_tile[i][tx];
#pragma unroll
      for (unsigned int j = 0; j < kRowsPerThread; ++j) {
        dot[j] += a_tile[ty + j * kBlockRows][i] * b_value;
      }
    }
    // The next iteration overwrites the tiles; every thread must be done reading them.
    __syncthreads();
  }

  if (col >= n) return;
#pragma unroll
  for (unsigned int j = 0; j < kRowsPerThread; ++j) {
    const std::size_t row = tile_row + ty + j * kBlockRows;
    if (row < m) c[row * n + col] = scale_and_add(alpha, dot[j], beta, c[row * n + col]);
  }
}

void launch_sgemm_naive(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
                        const float* b, float beta, float* c, cudaStream_t stream) {
  if (m == 0 || n == 0) return;
  const char* name = "sgemm_naive";
  const dim3 grid{detail::grid_blocks_checked(n, kTile, detail::kMaxGridX, name, "n"),
                  detail::grid_blocks_checked(m, kBlockRows, detail::kMaxGridY, name, "m")};
  sgemm_naive_kernel<<<grid, dim3{kTile, kBlockRows}, 0, stream>>>(m, n, k, alpha, a, b, beta, c);
  detail::check_launch(name);
}

void launch_sgemm_tiled(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
                        const float* b, float beta, float* c, cudaStream_t stream) {
  if (m == 0 || n == 0) return;
  const char* name = "sgemm_tiled";
  const dim3 grid{detail::grid_blocks_checked(n, kTile, detail::kMaxGridX, name, "n"),
                  detail::grid_blocks_checked(m, kTile, detail::kMaxGridY, name, "m")};
  sgemm_tiled_kernel<<<grid, dim3{kTile, kBlockRows}, 0, stream>>>(m, n, k, alpha, a, b, beta, c);
  detail::check_launch(name);
}

}  // namespace kerntime::samples
