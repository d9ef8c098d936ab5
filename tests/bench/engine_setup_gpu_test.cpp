// SPDX-License-Identifier: Apache-2.0
// Per-sample setup (MeasureOptions::setup) on a GPU: outside the timed window in every mode,
// once before every sample, and what an in-place kernel needs; and the profiler's settings
// (run_once, no blocking kernel), which call the launcher exactly as often as they say.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/gpu_status.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "kernels/segment_sort.hpp"
#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

class EngineSetup : public testing::GpuTest {};

constexpr std::uint64_t kSetupNs = 200'000;  // 100 times the timed kernel

const Launcher spin_2us = [](cudaStream_t stream) { samples::launch_spin(2'000, stream); };
const Launcher spin_setup = [](cudaStream_t stream) { samples::launch_spin(kSetupNs, stream); };

// A 200 us kernel before every sample, a 2 us kernel timed: were the setup inside the window,
// every time would exceed 200 us.
TEST_F(EngineSetup, TheSetupIsOutsideTheTimedWindowInEveryMode) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Engine engine;
  for (bool cupti : {true, false}) {
    for (MeasureMode mode : {MeasureMode::cold, MeasureMode::hot, MeasureMode::graph}) {
      MeasureOptions options;
      options.name =
          std::string{"setup/"} + std::string{to_string(mode)} + (cupti ? "" : "/events");
      options.mode = mode;
      options.setup = spin_setup;
      options.tracer = cupti ? &tracer : nullptr;
      options.stopping.fixed_samples = 30;
      const Measurement m = engine.measure(spin_2us, options);
      EXPECT_EQ(m.headline.count, 30u) << options.name;
      EXPECT_EQ(m.headline_timer, cupti                       ? "cupti-kernel"
                                  : mode == MeasureMode::cold ? "cuda-event-corrected"
                                                              : "cuda-event-batch")
          << options.name;
      // The 2 us kernel's own time; the raw event pair holds a few us of launch floor at most.
      EXPECT_GE(m.headline.median, 1'500.0) << options.name;
      EXPECT_LT(m.headline.median, 6'000.0) << options.name;
      EXPECT_LT(m.events.max, 0.25 * static_cast<double>(kSetupNs)) << options.name;
      EXPECT_TRUE(m.info.blocking_kernel) << options.name;
    }
  }
}

// Host-side counts of the calls, for the rules of MeasureOptions::setup.
struct Calls {
  std::size_t setup = 0;
  std::size_t launcher = 0;
};

Measurement counted(Engine& engine, MeasureMode mode, Calls& calls, std::size_t batch,
                    bool blocking = true, bool run_once = false) {
  MeasureOptions options;
  options.name = std::string{"count/"} + std::string{to_string(mode)};
  options.mode = mode;
  options.batch_size = batch;
  options.warmup_samples = 2;
  options.stopping.fixed_samples = 25;
  options.blocking_kernel = blocking;
  options.run_once = run_once;
  options.setup = [&calls](cudaStream_t stream) {
    ++calls.setup;
    samples::launch_spin(1'000, stream);
  };
  return engine.measure(
      [&calls](cudaStream_t stream) {
        ++calls.launcher;
        samples::launch_spin(1'000, stream);
      },
      options);
}

TEST_F(EngineSetup, TheSetupRunsOnceBeforeEverySampleAndTheFirstCall) {
  Engine engine;
  Calls cold;
  const Measurement c = counted(engine, MeasureMode::cold, cold, 0);
  // The first call, the warm-up samples, the samples: one setup before each launcher call.
  EXPECT_EQ(cold.launcher, 1 + c.info.warmup_samples + c.samples.size());
  EXPECT_EQ(cold.setup, cold.launcher);

  Calls hot;
  const Measurement h = counted(engine, MeasureMode::hot, hot, 8);
  EXPECT_EQ(h.info.batch_size, 8u);
  EXPECT_EQ(hot.setup, 1 + h.info.warmup_samples + h.samples.size());  // once per batch
  EXPECT_EQ(hot.launcher, 1 + 8 * (h.info.warmup_samples + h.samples.size()));

  Calls graph;
  const Measurement g = counted(engine, MeasureMode::graph, graph, 8);
  // Before each replay: the warm-up one too.
  EXPECT_EQ(graph.setup, 2 + g.info.warmup_samples + g.samples.size());
  EXPECT_EQ(graph.launcher, 1 + 8u);  // the first call and the capture
}

TEST_F(EngineSetup, RunOnceWithoutTheBlockingKernelCallsTheLauncherOnce) {
  Engine engine;
  Calls once;
  const Measurement m = counted(engine, MeasureMode::cold, once, 0, false, true);
  EXPECT_EQ(once.launcher, 1u);
  EXPECT_EQ(once.setup, 1u);
  ASSERT_EQ(m.samples.size(), 1u);
  EXPECT_EQ(m.info.warmup_samples, 0u);
  EXPECT_EQ(m.info.stop_reason, to_string(StopReason::fixed_count));
  EXPECT_FALSE(m.info.blocking_kernel);
  EXPECT_FALSE(m.samples[0].sm_clock_mhz.has_value());  // no clock check kernel
  EXPECT_EQ(m.headline_timer, "cuda-event");            // nothing calibrated, nothing subtracted
  EXPECT_DOUBLE_EQ(m.info.event_floor_ns, 0.0);
  EXPECT_GE(m.headline.median, 1'000.0);

  Calls blocked;
  const Measurement b = counted(engine, MeasureMode::cold, blocked, 0, true, true);
  EXPECT_EQ(blocked.launcher, 2u);  // the unblocked first call, then the one sample
  ASSERT_EQ(b.samples.size(), 1u);
  EXPECT_TRUE(b.info.blocking_kernel);

  Calls graph;
  const Measurement g = counted(engine, MeasureMode::graph, graph, 0, false, true);
  EXPECT_EQ(g.info.batch_size, 1u);
  EXPECT_EQ(graph.launcher, 1u);  // captured once, replayed once
  ASSERT_EQ(g.samples.size(), 1u);
}

TEST_F(EngineSetup, WithoutTheBlockingKernelSamplesStillCount) {
  Engine engine;
  Calls calls;
  const Measurement m = counted(engine, MeasureMode::cold, calls, 0, false, false);
  EXPECT_EQ(m.headline.count, 25u);
  EXPECT_FALSE(m.info.blocking_kernel);
  EXPECT_EQ(m.headline_timer, "cuda-event");
  EXPECT_FALSE(m.info.median_sm_clock_mhz.has_value());
  EXPECT_EQ(m.info.throttled_samples, 0u);
}

// An in-place sort: restored before every sample it sorts random data each time; without the
// setup every sample after the first sorts sorted segments, which costs far less.
TEST_F(EngineSetup, AnInPlaceSortNeedsTheSetupToTimeRandomInput) {
  constexpr std::size_t n = std::size_t{1} << 22;
  std::vector<float> values(n);
  std::mt19937 generator{5};
  std::uniform_real_distribution<float> uniform{-1.0f, 1.0f};
  for (float& v : values)
    v = uniform(generator);
  void* buffers = nullptr;
  ASSERT_EQ(cudaMalloc(&buffers, 2 * n * sizeof(float)), cudaSuccess);
  float* const input = static_cast<float*>(buffers);
  float* const data = input + n;
  ASSERT_EQ(cudaMemcpy(input, values.data(), n * sizeof(float), cudaMemcpyHostToDevice),
            cudaSuccess);
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Engine engine;
  MeasureOptions options;
  options.tracer = &tracer;
  options.stopping.fixed_samples = 40;
  const Launcher sort = [data](cudaStream_t s) { samples::launch_segment_sort(data, n, s); };
  const Launcher restore = [=](cudaStream_t s) {
    check_cuda_call(cudaMemcpyAsync(data, input, n * sizeof(float), cudaMemcpyDeviceToDevice, s),
                    "cudaMemcpyAsync (restore)");
  };
  options.name = "sort/restored";
  options.setup = restore;
  const Measurement restored = engine.measure(sort, options);
  options.name = "sort/sorted";
  options.setup = nullptr;
  const Measurement sorted = engine.measure(sort, options);
  cudaFree(buffers);
  // Insertion sort of random segments moves about a quarter of each segment per element, of
  // sorted ones none: at least half again as long, where memory traffic alone is the same.
  EXPECT_GT(restored.headline.median, 1.5 * sorted.headline.median)
      << "restored " << restored.headline.median << " ns, sorted " << sorted.headline.median
      << " ns";
  // Every restored sample sorts the same random data: as steady as any kernel.
  ASSERT_TRUE(restored.headline.relative_noise.has_value());
  EXPECT_LT(*restored.headline.relative_noise, 0.1);
}

}  // namespace
}  // namespace kerntime
