// SPDX-License-Identifier: Apache-2.0
// kerntime quickstart: each sample kernel timed three ways, so that the first table shows what
// a kernel's GPU time is and what the usual ways of timing it read instead.
//
//   GPU time      kerntime's benchmark engine (kerntime::Engine): the kernel queued behind a
//                 blocking kernel, sampled until its median is known to +-0.5 %. The time is
//                 CUPTI's record of the kernel when a kerntime::Tracer records ("cupti"), or
//                 cudaEvents corrected for the launch around the kernel when another tool holds
//                 CUPTI ("events"; docs/benchmarks.md).
//   Event pair    a plain cudaEventRecord pair around one launch (a kerntime::ScopedTimer),
//                 waited for: the kernel plus the launch's trip to the GPU (docs/timing.md).
//   Host enqueue  a host clock around the launch call: how long queueing the launch took. It
//                 returns before the kernel runs, whatever the kernel does.
//
// The pattern to copy into your own code:
//   1. Without a usable GPU, say why in one line and exit with kerntime::kNoGpuExitStatus.
//   2. A kerntime::Tracer first, before CUDA work, so that CUPTI sees every kernel.
//   3. One kerntime::Engine for every measurement: it calibrates and allocates once per GPU.
//   4. A launcher only enqueues work on the stream it is given; declare its work (bytes moved,
//      flops) and the measurement gives GB/s and TFLOP/s.
//
// Build and run: cmake --workflow --preset quickstart
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/kerntime.hpp>

#include "kernels/samples.hpp"

namespace {

namespace samples = kerntime::samples;

// This program's own CUDA calls fail the way kerntime's do: with a kerntime::Error.
void check(cudaError_t error, const char* what) {
  kerntime::check_cuda_call(error, what);
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

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return kerntime::quantile_sorted(values, 0.5);
}

constexpr int kNaiveRepetitions = 20;

// The median of a plain event pair around one launch, each waited for before the next.
double event_pair_ns(kerntime::Session& session, const std::string& name,
                     const kerntime::Launcher& launch, cudaStream_t s) {
  for (int i = 0; i < kNaiveRepetitions; ++i) {
    {
      kerntime::ScopedTimer timer{session, name, s};
      launch(s);
    }
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  return median(session.samples(name));
}

// The median host time of the launch call alone.
double host_enqueue_ns(const kerntime::Launcher& launch, cudaStream_t s) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> times;
  for (int i = 0; i < kNaiveRepetitions; ++i) {
    const Clock::time_point start = Clock::now();
    launch(s);
    times.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count());
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  return median(times);
}

std::string rate(const kerntime::Throughput& t) {
  char text[64] = "";
  if (t.tflop_per_s) {
    std::snprintf(text, sizeof text, "%.2f TFLOP/s", *t.tflop_per_s);
  } else if (t.gb_per_s) {
    std::snprintf(text, sizeof text, "%.0f GB/s", *t.gb_per_s);
  }
  return text;
}

int run() {
  // Created before any CUDA work. Where CUPTI is missing or held by another tool (Nsight,
  // compute-sanitizer) it is inactive, says why, and the engine times with events instead.
  kerntime::Tracer tracer;
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
  float* const total = sum.get();

  // Each name says what ran and at what size, as a report will show it; the work is what one
  // call reads and writes, and computes.
  struct Kernel {
    const char* name;
    kerntime::Launcher launch;
    kerntime::Work work;
  };
  const auto bytes = [](std::size_t n) { return static_cast<double>(n); };
  const Kernel kernels[] = {
      {"empty", [](cudaStream_t st) { samples::launch_empty(st); }, {}},
      {"spin/10us", [](cudaStream_t st) { samples::launch_spin(10'000, st); }, {}},
      {"device_copy/64MiB",
       [=](cudaStream_t st) { samples::launch_device_copy(c, a, kBytes, st); },
       {bytes(samples::device_copy_bytes(kBytes)), 0.0}},
      {"vector_add/16Mi",
       [=](cudaStream_t st) { samples::launch_vector_add(kFloats, a, b, c, st); },
       {bytes(samples::vector_add_bytes(kFloats)), bytes(samples::vector_add_flops(kFloats))}},
      {"saxpy/16Mi",
       [=](cudaStream_t st) { samples::launch_saxpy(kFloats, 2.0f, a, b, st); },
       {bytes(samples::saxpy_bytes(kFloats)), bytes(samples::saxpy_flops(kFloats))}},
      {"reduce_sum/16Mi",
       [=](cudaStream_t st) { samples::launch_reduce_sum(kFloats, a, total, st); },
       {bytes(samples::reduce_sum_bytes(kFloats)), bytes(samples::reduce_sum_flops(kFloats))}},
      {"transpose_naive/4096^2",
       [=](cudaStream_t st) { samples::launch_transpose_naive(kSide, kSide, a, c, st); },
       {bytes(samples::transpose_bytes(kSide, kSide)), 0.0}},
      {"transpose_tiled/4096^2",
       [=](cudaStream_t st) { samples::launch_transpose_tiled(kSide, kSide, a, c, st); },
       {bytes(samples::transpose_bytes(kSide, kSide)), 0.0}},
      {"sgemm_naive/1024^3",
       [=](cudaStream_t st) {
         samples::launch_sgemm_naive(kNaive, kNaive, kNaive, 1.0f, a, b, 0.0f, c, st);
       },
       {bytes(samples::sgemm_bytes(kNaive, kNaive, kNaive)),
        bytes(samples::sgemm_flops(kNaive, kNaive, kNaive))}},
      {"sgemm_tiled/2048^3",
       [=](cudaStream_t st) {
         samples::launch_sgemm_tiled(kGemm, kGemm, kGemm, 1.0f, a, b, 0.0f, c, st);
       },
       {bytes(samples::sgemm_bytes(kGemm, kGemm, kGemm)),
        bytes(samples::sgemm_flops(kGemm, kGemm, kGemm))}},
  };

  kerntime::Engine engine;
  kerntime::Session session;  // for the plain event pairs
  std::vector<std::string> warnings;
  std::printf("%-24s %12s  %-6s %12s %13s  %s\n", "Kernel", "GPU time", "via", "Event pair",
              "Host enqueue", "Rate (GPU time)");
  for (const Kernel& kernel : kernels) {
    kerntime::MeasureOptions options;
    options.name = kernel.name;
    options.work = kernel.work;
    options.tracer = tracer.active() ? &tracer : nullptr;
    const kerntime::Measurement m = engine.measure(kernel.launch, options);
    // The engine ran the kernel first, so its code is loaded before the plain timings.
    const double pair = event_pair_ns(session, kernel.name, kernel.launch, s);
    const double host = host_enqueue_ns(kernel.launch, s);
    std::printf("%-24s %12s  %-6s %12s %13s  %s\n", kernel.name,
                kerntime::format_duration(m.headline.median).c_str(),
                m.headline_timer == "cupti-kernel" ? "cupti" : "events",
                kerntime::format_duration(pair).c_str(), kerntime::format_duration(host).c_str(),
                rate(m.info.throughput).c_str());
    for (const std::string& warning : m.warnings)
      warnings.push_back(std::string{kernel.name} + ": " + warning);
  }
  std::printf(
      "\nGPU time: the kernel on the GPU (kerntime's engine, median). Event pair: a plain "
      "cudaEvent pair around one launch; it adds the launch's trip to the GPU. Host enqueue: "
      "the launch call; it ends before the kernel runs.\n");
  if (!tracer.active()) {
    std::printf("CUPTI is not recording (%s): GPU times are corrected events.\n",
                tracer.unavailable_reason().c_str());
  }
  for (const std::string& warning : warnings)
    std::printf("warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace

int main() {
  const kerntime::GpuStatus gpu = kerntime::query_gpu_status();
  if (!gpu.usable()) {  // one line, the cause, and the status every kerntime program gives
    std::fprintf(stderr, "quickstart: %s\n", gpu.message.c_str());
    return kerntime::kNoGpuExitStatus;
  }
  try {
    return run();
  } catch (const kerntime::Error& error) {  // a failed CUDA call: one line, the cause
    std::fprintf(stderr, "quickstart: %s\n", error.what());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "quickstart: unexpected failure: %s\n", error.what());
  }
  return 1;
}
