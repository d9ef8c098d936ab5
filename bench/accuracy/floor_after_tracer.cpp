// SPDX-License-Identifier: Apache-2.0
// floor_after_tracer [ENGINES]: the launch floor's calibrations in a fresh process after its first
// Tracer stopped (docs/benchmarks.md, "Events only"). EngineCold's events-only test at 10 us
// missed in 3 of 44 full GPU suites, each time with a calibration 0.26 to 0.38 us above the floor
// its samples held. This repeats that test's sequence: a Tracer measures a 10 us spin and its
// truth, then stops; then ENGINES (default 8) engines in turn, each calibrating its own floor,
// measure the spin with events only. One JSON line per measurement; bench/scripts/
// floor_after_tracer.py runs it in many processes and compares the first engine with the rest.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"

namespace {

constexpr std::uint64_t kSpinNs = 10'000;

kerntime::Launcher spin() {
  return [](cudaStream_t stream) { kerntime::samples::launch_spin(kSpinNs, stream); };
}

// Median CUPTI duration of plain launches, each waited for: the truth, apart from the engine.
double truth_ns(kerntime::Tracer& tracer) {
  tracer.flush();
  tracer.clear();
  for (int i = 0; i < 200; ++i) {
    kerntime::samples::launch_spin(kSpinNs, nullptr);
    cudaStreamSynchronize(nullptr);
  }
  tracer.flush();
  std::vector<double> durations;
  for (const kerntime::KernelActivity& k : tracer.trace().kernels) {
    if (k.name.find("spin_kernel") != std::string_view::npos) {
      durations.push_back(static_cast<double>(k.duration_ns()));
    }
  }
  tracer.clear();
  return kerntime::median(std::move(durations));
}

void print(const char* what, int engine, const kerntime::Measurement& m, double truth) {
  std::printf(
      "{\"what\": \"%s\", \"engine\": %d, \"floor_ns\": %.1f, \"fixed_cost_ns\": %.1f, "
      "\"events_ns\": %.1f, \"headline_ns\": %.1f, \"truth_ns\": %.1f, \"timer\": \"%s\"}\n",
      what, engine, m.info.event_floor_ns, m.info.kernel_fixed_cost_ns.value_or(0.0),
      m.events.median, m.headline.median, truth, m.headline_timer.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int engines = argc > 1 ? std::atoi(argv[1]) : 8;
  if (engines < 1) {
    std::fprintf(stderr, "floor_after_tracer: ENGINES must be a positive count\n");
    return 2;
  }
  // The fixed cost from this process's Tracer only, as in the test: no cache file.
  ::setenv("KERNTIME_NO_CACHE", "1", 1);
  try {
    double truth = 0.0;
    {
      kerntime::Tracer tracer;
      if (!tracer.active()) {
        std::fprintf(stderr, "floor_after_tracer: no Tracer: %s\n",
                     tracer.unavailable_reason().c_str());
        return 1;
      }
      kerntime::Engine engine;
      kerntime::MeasureOptions options;
      options.name = "spin/10000";
      options.tracer = &tracer;
      const kerntime::Measurement traced = engine.measure(spin(), options);
      truth = truth_ns(tracer);
      print("traced", 0, traced, truth);
    }
    for (int i = 1; i <= engines; ++i) {
      kerntime::Engine later;
      kerntime::MeasureOptions options;
      options.name = "spin/10000";
      options.borrow_cupti = false;
      print("events-only", i, later.measure(spin(), options), truth);
    }
  } catch (const kerntime::Error& e) {
    std::fprintf(stderr, "floor_after_tracer: %s\n", e.what());
    return 1;
  }
  return 0;
}
