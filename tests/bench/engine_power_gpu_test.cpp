// SPDX-License-Identifier: Apache-2.0
// NVML's reading per sample (issue 28): every sample on a GPU carries the clock event reasons
// and power draw, and the measurement's count of slowed samples is what those readings say.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/measure.hpp>

#include "bench/clock_event_reasons.hpp"
#include "cuda/power_monitor.hpp"
#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

class EnginePower : public testing::GpuTest {};

TEST_F(EnginePower, NvmlReadsTheGpusPowerDrawAndClockEventReasons) {
  const cuda::PowerMonitor monitor(0);
  ASSERT_TRUE(monitor.available()) << monitor.why();
  EXPECT_TRUE(monitor.why().empty());
  const auto reading = monitor.read();
  ASSERT_TRUE(reading.has_value());
  ASSERT_TRUE(reading->power_w.has_value());
  // An idle or busy datacenter GPU draws tens to hundreds of watts; never 0, never kilowatts.
  EXPECT_GT(*reading->power_w, 10.0);
  EXPECT_LT(*reading->power_w, 2000.0);
  // Only NVML's defined bits (up to the display clock setting, 0x100).
  EXPECT_EQ(reading->clock_event_reasons & ~std::uint64_t{0x1ff}, 0u);
}

TEST_F(EnginePower, EverySampleCarriesNvmlsReadingAndTheSlowedCountFollowsIt) {
  Engine engine;
  MeasureOptions options;
  options.name = "spin 20 us";
  options.stopping.fixed_samples = 200;
  const Measurement m =
      engine.measure([](cudaStream_t stream) { samples::launch_spin(20'000, stream); }, options);
  ASSERT_EQ(m.headline.count, 200u);
  std::size_t slowed = 0;
  std::uint64_t reasons = 0;
  for (const SampleRecord& s : m.samples) {
    ASSERT_TRUE(s.clock_event_reasons.has_value());
    ASSERT_TRUE(s.power_w.has_value());
    EXPECT_GT(*s.power_w, 10.0);
    if (!s.valid || s.throttled) continue;
    if ((*s.clock_event_reasons & bench::kSlowingClockEvents) != 0) {
      ++slowed;
      reasons |= *s.clock_event_reasons;
    }
  }
  EXPECT_EQ(m.info.slowed_samples, slowed);
  EXPECT_EQ(m.info.clock_event_reasons, bench::slowing_clock_event_names(reasons));
  ASSERT_TRUE(m.info.median_power_w.has_value());
  EXPECT_GT(*m.info.median_power_w, 10.0);
  EXPECT_LT(*m.info.median_power_w, 2000.0);
}

}  // namespace
}  // namespace kerntime
