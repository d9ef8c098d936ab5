// SPDX-License-Identifier: Apache-2.0
// The stopping rules on synthetic samples.
#include "bench/stopping.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::bench {
namespace {

std::vector<double> ramp(std::size_t n, double base, double step) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back(base + step * static_cast<double>(i));
  return v;
}

TEST(MedianCi, NeedsEightSamples) {
  EXPECT_FALSE(median_ci_half_width({1, 2, 3, 4, 5, 6, 7}).has_value());
  EXPECT_TRUE(median_ci_half_width({1, 2, 3, 4, 5, 6, 7, 8}).has_value());
}

TEST(MedianCi, UsesTheOrderStatisticRanks) {
  // n = 100: ranks floor(50 - 9.8) = 40 and ceil(51 + 9.8) = 61 (1-based) around median 149.5.
  const std::vector<double> v = ramp(100, 100.0, 1.0);
  const auto ci = median_ci_half_width(v);
  ASSERT_TRUE(ci.has_value());
  EXPECT_DOUBLE_EQ(*ci, std::max(149.5 - 139.0, 160.0 - 149.5) / 149.5);
}

TEST(MedianCi, ShrinksWithTheSampleCount) {
  const auto small = median_ci_half_width(ramp(100, 1000.0, 0.1));
  const auto large = median_ci_half_width(ramp(10000, 1000.0, 0.001));
  ASSERT_TRUE(small && large);
  EXPECT_LT(*large, *small);
}

TEST(RelativeNoise, IsBesselCorrectedStddevOverMean) {
  const auto noise = relative_noise({9.0, 11.0});
  ASSERT_TRUE(noise.has_value());
  EXPECT_NEAR(*noise, std::sqrt(2.0) / 10.0, 1e-12);
  EXPECT_FALSE(relative_noise({5.0}).has_value());
  EXPECT_FALSE(relative_noise({0.0, 0.0}).has_value());
}

TEST(CheckStopping, ConstantSamplesAreStableAtMinSamples) {
  StoppingCriteria c;
  c.min_samples = 20;
  EXPECT_FALSE(check_stopping(c, std::vector<double>(19, 500.0), 0.1, 1).stop);
  const StopDecision d = check_stopping(c, std::vector<double>(20, 500.0), 0.1, 1);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::stable);
  EXPECT_FALSE(d.warn);
  EXPECT_NE(d.detail.find("20 samples"), std::string::npos) << d.detail;
}

TEST(CheckStopping, NoiseStopsWhenTheCiRuleIsOff) {
  StoppingCriteria c;
  c.max_ci_half_width = 0;
  c.max_noise = 0.01;
  const StopDecision d = check_stopping(c, ramp(40, 1000.0, 0.1), 0.1, 1);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::noise);
}

TEST(CheckStopping, WideSamplesRunUntilTheTimeoutWithAWarning) {
  StoppingCriteria c;
  c.timeout_s = 2.0;
  const std::vector<double> wide = ramp(50, 100.0, 50.0);
  EXPECT_FALSE(check_stopping(c, wide, 1.9, 1).stop);
  const StopDecision d = check_stopping(c, wide, 2.0, 1);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::timeout);
  EXPECT_TRUE(d.warn);
  EXPECT_NE(d.detail.find("CI of the median"), std::string::npos) << d.detail;
}

TEST(CheckStopping, AnIntervalOfATimerTickIsStableEvenNearZero) {
  // Events minus the launch floor for work no longer than an empty kernel: mostly 0 (clamped)
  // and one 32 ns tick, so no relative precision exists, but the interval is one tick wide.
  std::vector<double> near_zero;
  for (int i = 0; i < 40; ++i)
    near_zero.push_back(i % 3 == 0 ? 32.0 : 0.0);
  StoppingCriteria c;
  const StopDecision d = check_stopping(c, near_zero, 0.1, 1);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::stable);
  EXPECT_NE(d.detail.find("+-32 ns after 40 samples"), std::string::npos) << d.detail;
  c.max_ci_half_width_ns = 0.0;
  EXPECT_FALSE(check_stopping(c, near_zero, 0.1, 1).stop);
}

TEST(MedianCi, GivesTheMedianAndTheAbsoluteHalfWidth) {
  const auto ci = median_ci(ramp(100, 100.0, 1.0));
  ASSERT_TRUE(ci.has_value());
  EXPECT_DOUBLE_EQ(ci->median, 149.5);
  EXPECT_DOUBLE_EQ(ci->half_width, 10.5);
  EXPECT_FALSE(median_ci_half_width(std::vector<double>(10, 0.0)).has_value());
  EXPECT_TRUE(median_ci(std::vector<double>(10, 0.0)).has_value());
}

TEST(CheckStopping, MinTimeHoldsBackAStableEstimate) {
  StoppingCriteria c;
  c.min_time_s = 1e-3;  // 1 ms of GPU time: 100 samples of 10 us
  EXPECT_FALSE(check_stopping(c, std::vector<double>(99, 10'000.0), 0.1, 1).stop);
  EXPECT_TRUE(check_stopping(c, std::vector<double>(100, 10'000.0), 0.1, 1).stop);
  // A batch of 10 calls per sample: 10 samples are enough.
  EXPECT_TRUE(check_stopping(c, std::vector<double>(20, 10'000.0), 0.1, 10).stop);
}

TEST(CheckStopping, FixedCountIgnoresNoiseAndMinSamples) {
  StoppingCriteria c;
  c.fixed_samples = 5;
  const std::vector<double> wide = ramp(4, 100.0, 50.0);
  EXPECT_FALSE(check_stopping(c, wide, 0.1, 1).stop);
  const StopDecision d = check_stopping(c, ramp(5, 100.0, 50.0), 0.1, 1);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::fixed_count);
}

TEST(CheckStopping, SampleCapEndsAnUnstableRun) {
  StoppingCriteria c;
  c.max_samples = 30;
  const StopDecision d = check_stopping(c, ramp(30, 100.0, 50.0), 0.1, 1);
  EXPECT_TRUE(d.stop);
  EXPECT_EQ(d.reason, StopReason::max_samples);
  EXPECT_TRUE(d.warn);
}

TEST(NextRound, ReachesMinSamplesThenGrowsByHalf) {
  StoppingCriteria c;
  c.min_samples = 20;
  EXPECT_EQ(next_round_size(c, 0, 0.0, 0.0), 20u);
  EXPECT_EQ(next_round_size(c, 20, 0.1, 0.0), 10u);
  EXPECT_EQ(next_round_size(c, 1000, 0.1, 0.0), 500u);
}

TEST(NextRound, StaysWithinAQuarterSecondAndTheTimeLeft) {
  StoppingCriteria c;
  c.timeout_s = 5.0;
  EXPECT_EQ(next_round_size(c, 100000, 0.0, 1e-4), 2500u);  // 0.25 s of 100 us samples
  // 0.125 s left at 2^-10 s per sample: 128 samples (binary fractions keep it exact).
  EXPECT_EQ(next_round_size(c, 100000, 4.875, 1.0 / 1024.0), 128u);
  EXPECT_EQ(next_round_size(c, 100000, 6.0, 1e-4), 1u);
}

TEST(NextRound, FixedCountTakesTheRest) {
  StoppingCriteria c;
  c.fixed_samples = 50;
  EXPECT_EQ(next_round_size(c, 0, 0.0, 0.0), 50u);
  EXPECT_EQ(next_round_size(c, 45, 0.0, 0.0), 5u);
}

}  // namespace
}  // namespace kerntime::bench
