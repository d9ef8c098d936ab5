// SPDX-License-Identifier: Apache-2.0
// Hot and graph modes, the function form, and the blocking kernel's way out of a launcher
// that synchronizes.
#include <chrono>
#include <cstdint>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

class EngineModes : public testing::GpuTest {};

bool any_contains(const std::vector<std::string>& texts, const std::string& part) {
  for (const std::string& t : texts) {
    if (t.find(part) != std::string::npos) return true;
  }
  return false;
}

const Launcher spin_2us = [](cudaStream_t stream) { samples::launch_spin(2'000, stream); };

TEST_F(EngineModes, HotAndGraphGivePerLaunchTimesOfBatches) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Engine engine;
  MeasureOptions options;
  options.tracer = &tracer;
  options.name = "spin/cold";
  const Measurement cold = engine.measure(spin_2us, options);
  for (MeasureMode mode : {MeasureMode::hot, MeasureMode::graph}) {
    options.mode = mode;
    options.name = std::string{"spin/"} + std::string{to_string(mode)};
    const Measurement m = engine.measure(spin_2us, options);
    EXPECT_EQ(m.info.mode, to_string(mode));
    EXPECT_GT(m.info.batch_size, 1u) << m.name;
    EXPECT_FALSE(m.info.l2_flushed);
    EXPECT_EQ(m.headline_timer, "cupti-kernel");
    // Per launch: at least the kernel's own 2 us, and under a cold event pair, whose floor a
    // batch shares among its launches.
    EXPECT_GE(m.headline.median, 2'000.0) << m.name;
    EXPECT_LT(m.headline.median, cold.events.median) << m.name;
    EXPECT_LT(m.events.median, cold.events.median) << m.name;
  }
}

TEST_F(EngineModes, GraphModeWithEventsOnlyDividesTheBatch) {
  MeasureOptions options;
  options.stopping.fixed_samples = 30;
  const Measurement cold = measure(spin_2us, options);
  options.mode = MeasureMode::graph;
  options.batch_size = 100;
  const Measurement m = measure(spin_2us, options);  // the function form
  EXPECT_EQ(m.info.batch_size, 100u);
  EXPECT_EQ(m.headline_timer, "cuda-event-batch");
  EXPECT_EQ(m.headline.count, 30u);
  EXPECT_GE(m.headline.median, 2'000.0);
  EXPECT_LT(m.headline.median, cold.events.median);
}

TEST_F(EngineModes, ASynchronizingLauncherTimesOutInsteadOfDeadlocking) {
  const Launcher synchronizing = [](cudaStream_t stream) {
    samples::launch_spin(1'000, stream);
    cudaStreamSynchronize(stream);  // waits for the blocking kernel: the classic deadlock
  };
  MeasureOptions options;
  options.name = "synchronizing";
  options.blocking_timeout_s = 0.05;
  options.warmup_samples = 0;
  options.stopping.fixed_samples = 6;
  const auto start = std::chrono::steady_clock::now();
  const Measurement m = measure(synchronizing, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 3.0);
  ASSERT_FALSE(m.samples.empty());
  EXPECT_FALSE(m.samples[0].valid);
  EXPECT_GE(m.info.invalid_samples, 1u);
  EXPECT_FALSE(m.info.blocking_kernel);
  EXPECT_EQ(m.headline.count, 6u);
  EXPECT_TRUE(any_contains(m.warnings, "the launcher probably waits for the GPU")) << m.name;
  EXPECT_TRUE(any_contains(m.warnings, "samples were invalid"));
}

TEST_F(EngineModes, AnInvisibleDeviceIsAnError) {
  MeasureOptions options;
  options.device = 9999;
  try {
    measure(spin_2us, options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("MeasureOptions::device is 9999"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kerntime
