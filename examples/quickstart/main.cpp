// SPDX-License-Identifier: Apache-2.0
// kerntime quickstart: time the sample kernels as GPU time and print a table.
//
// The pattern to copy into your own code:
//   1. kerntime::require_gpu() first: without a usable GPU it throws one sentence saying why.
//   2. One kerntime::Session for the whole run; it creates its CUDA events up front.
//   3. Allocate and warm up before timing: a kernel's first launch also loads its code.
//   4. Wrap launches in a kerntime::ScopedTimer, or pass a lambda to session.time(). Both
//      record events on your stream and return at once: nothing waits for the GPU while the
//      loops below run.
//   5. session.report() waits for the GPU, once, and computes statistics per region name.
//
// The times are GPU time between two events. For kernels shorter than about 100 us they include
// a launch gap of a few microseconds (docs/timing.md); the "empty" row shows it on your machine.
//
// Build and run: cmake --workflow --preset quickstart
#include <cstddef>
#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/kerntime.hpp>

#include "kernels/samples.hpp"

namespace {

namespace samples = kerntime::samples;

// This program's own CUDA calls fail the way kerntime's do: with a kerntime::Error.
void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw kerntime::Error(std::string{what} + " failed: " + cudaGetErrorName(error) + " (" +
                          cudaGetErrorString(error) + ")");
  }
}

// Device memory that is freed on every way out of run(), exceptions included.
struct CudaFree {
  void operator()(float* pointer) const { cudaFree(pointer); }
};
using DeviceFloats = std::unique_ptr<float, CudaFree>;

DeviceFloats allocate_floats(std::size_t count) {
  void* pointer = nullptr;
  check(cudaMalloc(&pointer, count * sizeof(float)), "cudaMalloc");
  DeviceFloats floats{static_cast<float*>(pointer)};
  // Values do not change these kernels' speed; zeros only avoid reading uninitialized memory.
  check(cudaMemset(pointer, 0, count * sizeof(float)), "cudaMemset");
  return floats;
}

// A CUDA stream destroyed with its scope.
struct Stream {
  Stream() { check(cudaStreamCreate(&handle), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(handle); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t handle = nullptr;
};

int run() {
  kerntime::require_gpu();
  kerntime::Session session;
  const Stream stream;
  const cudaStream_t s = stream.handle;

  // Large enough that memory-bound kernels run for tens of microseconds, far above the launch
  // gap, on vectors larger than the L2 cache (60 MB on an H200).
  constexpr std::size_t kFloats = std::size_t{16} << 20;  // 16 Mi floats: 64 MiB per vector
  constexpr std::size_t kBytes = kFloats * sizeof(float);
  constexpr std::size_t kSide = 4096;  // 4096 x 4096 = 16 Mi floats
  constexpr std::size_t kGemm = 2048;
  constexpr std::size_t kNaive = 1024;  // smaller: the naive SGEMM is the slow one
  const DeviceFloats x = allocate_floats(kFloats);
  const DeviceFloats y = allocate_floats(kFloats);
  const DeviceFloats z = allocate_floats(kFloats);
  const DeviceFloats sum = allocate_floats(1);
  float* const a = x.get();
  float* const b = y.get();
  float* const c = z.get();

  // Each region's name says what ran and at what size, as a report will show it.
  struct Timed {
    const char* name;
    std::function<void()> launch;
  };
  const Timed kernels[] = {
      {"empty", [&] { samples::launch_empty(s); }},
      {"spin/10us", [&] { samples::launch_spin(10'000, s); }},
      {"device_copy/64MiB", [&] { samples::launch_device_copy(c, a, kBytes, s); }},
      {"vector_add/16Mi", [&] { samples::launch_vector_add(kFloats, a, b, c, s); }},
      {"saxpy/16Mi", [&] { samples::launch_saxpy(kFloats, 2.0f, a, b, s); }},
      {"transpose_naive/4096^2", [&] { samples::launch_transpose_naive(kSide, kSide, a, c, s); }},
      {"transpose_tiled/4096^2", [&] { samples::launch_transpose_tiled(kSide, kSide, a, c, s); }},
      {"sgemm_naive/1024^3",
       [&] { samples::launch_sgemm_naive(kNaive, kNaive, kNaive, 1.0f, a, b, 0.0f, c, s); }},
      {"sgemm_tiled/2048^3",
       [&] { samples::launch_sgemm_tiled(kGemm, kGemm, kGemm, 1.0f, a, b, 0.0f, c, s); }},
  };
  // Warm-up, not timed: loads each kernel's code and touches every buffer once.
  for (const Timed& kernel : kernels)
    kernel.launch();
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");

  constexpr int kRepetitions = 50;
  for (const Timed& kernel : kernels) {
    for (int i = 0; i < kRepetitions; ++i) {
      kerntime::ScopedTimer timer{session, kernel.name, s};
      kernel.launch();
    }
  }
  // The same with a callable: session.time() returns whatever the callable returns.
  for (int i = 0; i < kRepetitions; ++i) {
    session.time("reduce_sum/16Mi", s,
                 [&] { samples::launch_reduce_sum(kFloats, a, sum.get(), s); });
  }

  const kerntime::Report report = session.report();  // waits for the GPU, reads every sample
  std::cout << kerntime::render(report, kerntime::Format::table);

  // Statistics are in nanoseconds, so bytes per ns is GB/s and flops per ns is GFLOP/s.
  const double copy_ns = report.find("device_copy/64MiB")->statistics.median;  // timed above
  const double gemm_ns = report.find("sgemm_tiled/2048^3")->statistics.median;
  std::printf("\nmedians: device_copy %.0f GB/s, sgemm_tiled %.2f TFLOP/s\n",
              samples::device_copy_bytes(kBytes) / copy_ns,
              samples::sgemm_flops(kGemm, kGemm, kGemm) / gemm_ns / 1000);
  return 0;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const kerntime::Error& error) {  // no GPU, a failed CUDA call: one line, the cause
    std::fprintf(stderr, "quickstart: %s\n", error.what());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "quickstart: unexpected failure: %s\n", error.what());
  }
  return 1;
}
