// SPDX-License-Identifier: Apache-2.0
// Single-precision matrix multiply (SGEMM), naive and with shared-memory tiles: the step from
// memory-bound to compute-bound, and what data reuse buys.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Floating-point operations of one m x n x k SGEMM: a multiply and an add per term of each dot
/// product (the m * n scaling by alpha and beta is left out, as BLAS benchmarks do).
constexpr std::size_t sgemm_flops(std::size_t m, std::size_t n, std::size_t k) {
  return 2 * m * n * k;
}

/// The least DRAM traffic of one SGEMM: A and B read once, C read once and written once. The
/// naive kernel moves far more (it relies on caches); the ratio to this is its inefficiency.
constexpr std::size_t sgemm_bytes(std::size_t m, std::size_t n, std::size_t k) {
  return (m * k + k * n + 2 * m * n) * sizeof(float);
}

/// Enqueues C = alpha * A * B + beta * C with row-major, unpadded device matrices: A is m x k,
/// B is k x n, C is m x n. When beta is 0, C is only written, never read, so it may hold
/// anything, NaN included (the BLAS convention). Any m, n, k work, multiples of 32 or not.
///
/// Naive: one thread per element of C computes a k-term dot product straight from global
/// memory; each element of A and B is loaded n and m times, mostly from cache. Launch: 32 x 8
/// threads per block (a warp covers 32 adjacent columns, so loads of B and stores of C are
/// coalesced and loads of A are broadcasts), grid ceil(n / 32) x ceil(m / 8); m may be at most
/// 524,280. Does nothing when m or n is 0. Throws kerntime::Error when m is too large or the
/// launch fails.
void launch_sgemm_naive(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
                        const float* b, float beta, float* c, cudaStream_t stream);

/// Tiled: each block computes a 32 x 32 tile of C. It walks k in steps of 32, staging a 32 x 32
/// tile of A and one of B in shared memory, so each element loaded from global memory serves 32
/// multiply-adds; each thread accumulates 4 elements of C (rows ty, ty + 8, ty + 16, ty + 24) in
/// registers, reusing each value of B it reads from shared memory 4 times. Tiles that stick out
/// of the matrices are padded with zeros. Launch: 32 x 8 threads per block, grid
/// ceil(n / 32) x ceil(m / 32), 8 KiB of static shared memory per block; m may be at most
/// 2,097,120. Does nothing when m or n is 0. Throws kerntime::Error when m is too large or the
/// launch fails.
void launch_sgemm_tiled(std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
                        const float* b, float beta, float* c, cudaStream_t stream);

}  // namespace kerntime::samples
