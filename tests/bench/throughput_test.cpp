// SPDX-License-Identifier: Apache-2.0
// GB/s, TFLOP/s and percent of peak from declared work.
#include <gtest/gtest.h>

#include <kerntime/counter.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime {
namespace {

TEST(PeakBandwidth, IsTwiceTheMemoryClockTimesTheBusWidthInBytes) {
  DeviceInfo h200;
  h200.memory_clock_khz = 3'201'000;
  h200.memory_bus_width_bits = 6144;
  // 2 x 3.201e9 /s x 768 bytes = 4916.7 GB/s
  EXPECT_NEAR(peak_bandwidth_gb_per_s(h200), 4916.736, 1e-9);
  DeviceInfo unknown;
  EXPECT_EQ(peak_bandwidth_gb_per_s(unknown), 0.0);
}

TEST(Throughput, BytesAndFlopsOverTime) {
  const Throughput t = compute_throughput({3.0e9, 2.0e12}, 1.0e6, 6000.0);  // in 1 ms
  ASSERT_TRUE(t.gb_per_s && t.tflop_per_s && t.peak_bandwidth_percent);
  EXPECT_DOUBLE_EQ(*t.gb_per_s, 3000.0);
  EXPECT_DOUBLE_EQ(*t.tflop_per_s, 2000.0);
  EXPECT_DOUBLE_EQ(*t.peak_bandwidth_percent, 50.0);
}

TEST(Throughput, UndeclaredOrUnknownStaysEmpty) {
  const Throughput none = compute_throughput({}, 1000.0, 6000.0);
  EXPECT_FALSE(none.gb_per_s || none.tflop_per_s || none.peak_bandwidth_percent);
  const Throughput no_peak = compute_throughput({1000.0, 0.0}, 1000.0, 0.0);
  EXPECT_TRUE(no_peak.gb_per_s.has_value());
  EXPECT_FALSE(no_peak.peak_bandwidth_percent.has_value());
  const Throughput zero_time = compute_throughput({1000.0, 1000.0}, 0.0, 6000.0);
  EXPECT_FALSE(zero_time.gb_per_s || zero_time.tflop_per_s);
}

TEST(Throughput, ElementsPerSecond) {
  const Throughput t = compute_throughput({0.0, 0.0, 1'048'576.0}, 2'000.0, 0.0);  // in 2 us
  ASSERT_TRUE(t.elements_per_s.has_value());
  EXPECT_DOUBLE_EQ(*t.elements_per_s, 524'288e6);
  EXPECT_FALSE(t.gb_per_s.has_value());
  EXPECT_FALSE(compute_throughput({1.0, 1.0}, 2'000.0, 0.0).elements_per_s.has_value());
}

TEST(Counters, ValuesAsTheyAreRatesPerSecondOfTheHeadline) {
  EXPECT_EQ(counter_result({"bytes/elem", 4.0}, 2'000.0), 4.0);
  EXPECT_EQ(counter_result({"bytes/elem", 4.0}, 0.0), 4.0);
  const auto rate = counter_result({"segments/s", 32'768.0, CounterKind::rate}, 2'000.0);
  ASSERT_TRUE(rate.has_value());
  EXPECT_DOUBLE_EQ(*rate, 32'768.0 / 2e-6);
  EXPECT_FALSE(counter_result({"r", 1.0, CounterKind::rate}, 0.0).has_value());
}

}  // namespace
}  // namespace kerntime
