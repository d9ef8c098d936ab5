// SPDX-License-Identifier: Apache-2.0
// A library's kernels are traced and attributed like the user's own: a cuBLAS SGEMM inside a
// named scope shows up under that scope with cuBLAS's kernel name.
#include <algorithm>
#include <cctype>
#include <cublas_v2.h>
#include <string>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/session.hpp>
#include <kerntime/tracer.hpp>

#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

class TracerCublasGpu : public testing::GpuTest {};

std::string lower(std::string_view text) {
  std::string out{text};
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

TEST_F(TracerCublasGpu, SgemmInAScopeIsAttributedWithCublasKernelName) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  constexpr int n = 512;
  const std::size_t bytes = std::size_t{n} * n * sizeof(float);
  void* memory[3] = {};
  for (void*& m : memory)
    ASSERT_EQ(cudaMalloc(&m, bytes), cudaSuccess);
  float* a = static_cast<float*>(memory[0]);
  float* b = static_cast<float*>(memory[1]);
  float* c = static_cast<float*>(memory[2]);
  ASSERT_EQ(cudaMemset(a, 0, bytes), cudaSuccess);
  ASSERT_EQ(cudaMemset(b, 0, bytes), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  cublasHandle_t handle = nullptr;
  ASSERT_EQ(cublasCreate(&handle), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasSetStream(handle, stream), CUBLAS_STATUS_SUCCESS);
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Warm-up outside any scope: cuBLAS loads its kernels on first use.
  ASSERT_EQ(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  tracer.flush();
  tracer.clear();

  Session session;
  {
    ScopedTimer scope{session, "cublas sgemm", stream};
    ASSERT_EQ(
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n),
        CUBLAS_STATUS_SUCCESS);
  }
  tracer.flush();
  const Trace trace = tracer.trace();
  cublasDestroy(handle);
  cudaStreamDestroy(stream);
  for (void* m : memory)
    cudaFree(m);

  EXPECT_EQ(trace.dropped_records, 0u);
  EXPECT_EQ(trace.unattributed_kernels, 0u);
  ASSERT_FALSE(trace.kernels.empty());
  std::size_t gemm_kernels = 0;
  for (const KernelActivity& kernel : trace.kernels) {
    SCOPED_TRACE(std::string{kernel.name});
    EXPECT_EQ(kernel.scope_name, "cublas sgemm");
    EXPECT_EQ(kernel.name.find("kerntime"), std::string_view::npos);  // not one of ours
    EXPECT_FALSE(kernel.name.empty());
    EXPECT_GT(kernel.duration_ns(), 0u);
    if (lower(kernel.name).find("gemm") != std::string::npos) ++gemm_kernels;
  }
  EXPECT_GE(gemm_kernels, 1u) << "first kernel: " << trace.kernels[0].name;

  const auto scopes = summarize_scopes(trace);
  ASSERT_EQ(scopes.size(), 1u);
  EXPECT_EQ(scopes[0].name, "cublas sgemm");
  EXPECT_EQ(scopes[0].kernels, trace.kernels.size());
  // 2 * 512^3 flops take microseconds, far from zero and far from a second.
  EXPECT_GT(scopes[0].kernel_time_ns, 1'000u);
  EXPECT_LT(scopes[0].kernel_time_ns, 100'000'000u);
}

}  // namespace
}  // namespace kerntime
