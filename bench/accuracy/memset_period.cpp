// SPDX-License-Identifier: Apache-2.0
// memset_period MODE [MEASUREMENTS]: does a memset followed by a kernel run slower on every fourth
// measurement of a process without PyTorch? (docs/order-history.md). In Python, a sum
// (a 4-byte memset, then the reduce kernel) measured 12 times in a row ran its memset-to-kernel
// gap 0.9 us slower on the 3rd, 7th and 11th measurement, with CUPTI and without, on one hardware
// channel. This measures the same shape, a small cudaMemsetAsync then a 70 us spin, events only,
// MEASUREMENTS times (default 12) in one process, and prints one JSON line per measurement with
// its median event time (of the counted samples). The modes change one thing each:
//   default    the engine's defaults
//   fixed      20 samples per measurement: a constant number of sequence numbers per measurement
//   no-flush   no L2 flush before the samples
//   kernel     no memset: an empty kernel, then the spin (a kernel-to-kernel gap)
// Measurements are 150 ms apart, so that under bench/run's channel reader (CUDA_INJECTION64_PATH)
// each one's records stand apart on the GPU's timeline and its gap can be read from them
// (bench/scripts/memset_period.py does both).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>

#include "kernels/spin.hpp"

namespace {

constexpr std::uint64_t kSpinNs = 70'000;

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "default";
  const int count = argc > 2 ? std::atoi(argv[2]) : 12;
  if ((mode != "default" && mode != "fixed" && mode != "no-flush" && mode != "kernel") ||
      count < 1) {
    std::fprintf(stderr, "usage: memset_period default|fixed|no-flush|kernel [MEASUREMENTS]\n");
    return 2;
  }
  void* target = nullptr;
  if (cudaMalloc(&target, 512) != cudaSuccess) {
    std::fprintf(stderr, "memset_period: cudaMalloc failed: %s\n",
                 cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  const bool memset = mode != "kernel";
  const kerntime::Launcher launcher = [target, memset](cudaStream_t stream) {
    if (memset) {
      const cudaError_t set = cudaMemsetAsync(target, 0, 4, stream);
      if (set != cudaSuccess) {
        throw kerntime::Error(std::string{"cudaMemsetAsync of the 4-byte target failed: "} +
                              cudaGetErrorString(set));
      }
    } else {
      kerntime::samples::launch_empty(stream);
    }
    kerntime::samples::launch_spin(kSpinNs, stream);
  };
  try {
    kerntime::Engine engine;
    for (int i = 1; i <= count; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      kerntime::MeasureOptions options;
      options.name = "memset_period/" + mode;
      options.borrow_cupti = false;
      options.l2_flush = mode != "no-flush";
      if (mode == "fixed") options.stopping.fixed_samples = 20;
      const kerntime::Measurement m = engine.measure(launcher, options);
      std::printf(
          "{\"mode\": \"%s\", \"measurement\": %d, \"samples\": %zu, \"events_ns\": %.1f}\n",
          mode.c_str(), i, m.samples.size(), m.events.median);
      std::fflush(stdout);
    }
  } catch (const kerntime::Error& e) {
    std::fprintf(stderr, "memset_period: %s\n", e.what());
    return 1;
  }
  cudaFree(target);
  return 0;
}
