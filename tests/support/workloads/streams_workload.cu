// SPDX-License-Identifier: Apache-2.0
// A C++ workload for .ci/real-workloads: cuBLAS, cuFFT and a kernel of its own on several
// streams from several threads. Each step, THREADS threads (one stream, one cuBLAS handle and
// one cuFFT plan each) run a 512 x 512 SGEMM, a batched 1D complex FFT and a scaling kernel on
// their stream, and synchronize it; the step ends when all have.
//
//   kerntime_workload_streams STEPS [THREADS]
//
// Prints "workload-result {...}" with each step's wall time (tests/support/workloads/_steps.py).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cufft.h>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

__global__ void workload_scale(cufftComplex* data, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i].x *= factor;
    data[i].y *= factor;
  }
}

namespace {

void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "streams_workload: %s failed: %s\n", what, detail.c_str());
  std::exit(1);
}
void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) fail(what, cudaGetErrorString(status));
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) fail(what, "cuBLAS status " + std::to_string(status));
}
void check(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) fail(what, "cuFFT status " + std::to_string(status));
}

constexpr int kMatrix = 512;
constexpr int kFftSize = 4096;
constexpr int kFftBatch = 64;
constexpr int kFftElements = kFftSize * kFftBatch;

struct Lane {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cufftHandle fft = 0;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  cufftComplex* signal = nullptr;

  Lane() {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cublasCreate(&blas), "cublasCreate");
    check(cublasSetStream(blas, stream), "cublasSetStream");
    check(cufftPlan1d(&fft, kFftSize, CUFFT_C2C, kFftBatch), "cufftPlan1d");
    check(cufftSetStream(fft, stream), "cufftSetStream");
    const size_t matrix_bytes = sizeof(float) * kMatrix * kMatrix;
    check(cudaMalloc(&a, matrix_bytes), "cudaMalloc");
    check(cudaMalloc(&b, matrix_bytes), "cudaMalloc");
    check(cudaMalloc(&c, matrix_bytes), "cudaMalloc");
    check(cudaMalloc(&signal, sizeof(cufftComplex) * kFftElements), "cudaMalloc");
    check(cudaMemsetAsync(a, 0, matrix_bytes, stream), "cudaMemsetAsync");
    check(cudaMemsetAsync(b, 0, matrix_bytes, stream), "cudaMemsetAsync");
    check(cudaMemsetAsync(signal, 0, sizeof(cufftComplex) * kFftElements, stream),
          "cudaMemsetAsync");
  }

  void step() {
    const float one = 1.0f;
    const float zero = 0.0f;
    check(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, kMatrix, kMatrix, kMatrix, &one, a, kMatrix,
                      b, kMatrix, &zero, c, kMatrix),
          "cublasSgemm");
    check(cufftExecC2C(fft, signal, signal, CUFFT_FORWARD), "cufftExecC2C");
    workload_scale<<<(kFftElements + 255) / 256, 256, 0, stream>>>(signal, 1.0f / kFftSize,
                                                                   kFftElements);
    check(cudaGetLastError(), "workload_scale");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 50;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 4;
  if (steps <= 0 || threads <= 0) {
    std::fprintf(stderr, "usage: kerntime_workload_streams STEPS [THREADS]\n");
    return 2;
  }
  std::vector<Lane> lanes(static_cast<size_t>(threads));
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const auto run_step = [&] {
    std::vector<std::thread> workers;
    for (Lane& lane : lanes)
      workers.emplace_back([&lane] { lane.step(); });
    for (std::thread& worker : workers)
      worker.join();
  };
  for (int i = 0; i < 3; ++i)
    run_step();  // warm-up
  std::vector<double> step_ms;
  for (int i = 0; i < steps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run_step();
    step_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::vector<double> sorted = step_ms;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  std::printf(
      "workload-result {\"program\": \"cpp-cublas-cufft-streams\", \"steps\": %d, "
      "\"step_ms\": [",
      steps);
  for (size_t i = 0; i < n; ++i)
    std::printf("%s%.4f", i ? ", " : "", step_ms[i]);
  std::printf("], \"step_ms_median\": %.4f, \"threads\": %d}\n", median, threads);
  return 0;
}
