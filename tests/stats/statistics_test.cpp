// SPDX-License-Identifier: Apache-2.0
// Expected values marked "numpy" were computed with NumPy 2.4 (np.percentile / np.quantile with the
// default linear method, np.median, np.std(ddof=1), np.median(abs(x - median))) and pasted here;
// the order-statistic indices were computed exactly with Python's integers (math.comb).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Tight relative tolerance: type 7 interpolation may differ from NumPy's in the last bits only.
void expect_close(double actual, double expected, const char* what) {
  EXPECT_NEAR(actual, expected, 1e-12 * std::max(1.0, std::fabs(expected))) << what;
}

// The error message, so a test can check that it names what went wrong.
template <typename F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected kerntime::Error";
  return {};
}

// Test-local generator, so the simulated data is the same with every standard library.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in (0, 1).
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  // Box-Muller.
  double normal() {
    const double r = std::sqrt(-2.0 * std::log(uniform()));
    return r * std::cos(2.0 * 3.14159265358979323846 * uniform());
  }

 private:
  std::uint64_t state_;
};

// 25 draws of lognormal(3, 0.8), rounded to 3 decimals: numpy default_rng(12345).
const std::vector<double> kSkewed = {6.43,   55.201, 10.009, 16.324,  18.911, 11.104, 6.725,
                                     33.755, 26.812, 4.211,  131.358, 43.589, 10.941, 41.337,
                                     13.824, 19.134, 37.753, 7.35,    31.839, 61.509, 57.849,
                                     15.804, 41.361, 5.489,  17.698};

TEST(Statistics, NoSamplesGivesCountZero) {
  const Statistics s = compute_statistics({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_FALSE(s.stddev.has_value());
  EXPECT_FALSE(s.relative_noise.has_value());
  EXPECT_FALSE(s.median_ci.has_value());
  EXPECT_TRUE(s.median_ci_method.empty());
}

TEST(Statistics, OneSampleIsEveryStatistic) {
  const Statistics s = compute_statistics({42.5});
  EXPECT_EQ(s.count, 1u);
  for (double v : {s.min, s.max, s.mean, s.median, s.q1, s.q3, s.p95, s.p99})
    EXPECT_EQ(v, 42.5);
  EXPECT_EQ(s.mad, 0.0);
  EXPECT_FALSE(s.stddev.has_value());
  EXPECT_FALSE(s.relative_noise.has_value());
  EXPECT_FALSE(s.median_ci.has_value());
  EXPECT_TRUE(s.median_ci_method.empty());
}

TEST(Statistics, TwoSamples) {
  const Statistics s = compute_statistics({7.0, 3.0});
  EXPECT_EQ(s.count, 2u);
  EXPECT_EQ(s.min, 3.0);
  EXPECT_EQ(s.max, 7.0);
  EXPECT_EQ(s.mean, 5.0);
  EXPECT_EQ(s.median, 5.0);
  expect_close(s.q1, 4.0, "q1");
  expect_close(s.q3, 6.0, "q3");
  expect_close(s.p95, 6.8, "p95");   // numpy
  expect_close(s.p99, 6.96, "p99");  // numpy
  EXPECT_EQ(s.mad, 2.0);
  ASSERT_TRUE(s.stddev.has_value());
  expect_close(*s.stddev, 2.8284271247461903, "stddev");  // sqrt(8)
  ASSERT_TRUE(s.relative_noise.has_value());
  expect_close(*s.relative_noise, 0.565685424949238, "relative_noise");
  // Resampled medians are 3, 5 or 7 with probabilities 1/4, 1/2, 1/4, so the 2.5% and 97.5%
  // percentiles of 2000 of them are the extremes.
  ASSERT_TRUE(s.median_ci.has_value());
  EXPECT_EQ(s.median_ci->low, 3.0);
  EXPECT_EQ(s.median_ci->high, 7.0);
  EXPECT_EQ(s.median_ci_method, "bootstrap");
  EXPECT_EQ(s.median_ci_level, 0.95);
}

TEST(Statistics, OddCountWithTies) {
  const Statistics s = compute_statistics({5, 1, 3, 3, 9, 3, 2});
  // numpy
  EXPECT_EQ(s.count, 7u);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 9.0);
  expect_close(s.mean, 3.7142857142857144, "mean");
  EXPECT_EQ(s.median, 3.0);
  expect_close(s.q1, 2.5, "q1");
  expect_close(s.q3, 4.0, "q3");
  expect_close(s.p95, 7.799999999999997, "p95");
  expect_close(s.p99, 8.759999999999998, "p99");
  EXPECT_EQ(s.mad, 1.0);
  ASSERT_TRUE(s.stddev.has_value());
  expect_close(*s.stddev, 2.627691364061218, "stddev");
  expect_close(*s.relative_noise, 0.707455367247251, "relative_noise");
}

TEST(Statistics, EvenCount) {
  const Statistics s = compute_statistics({10, 2, 8, 4, 6, 12});
  // numpy
  EXPECT_EQ(s.median, 7.0);
  expect_close(s.mean, 7.0, "mean");
  expect_close(s.q1, 4.5, "q1");
  expect_close(s.q3, 9.5, "q3");
  expect_close(s.p95, 11.5, "p95");
  expect_close(s.p99, 11.9, "p99");
  EXPECT_EQ(s.mad, 3.0);
  expect_close(*s.stddev, 3.7416573867739413, "stddev");
  expect_close(*s.relative_noise, 0.5345224838248488, "relative_noise");
}

TEST(Statistics, SkewedDistribution) {
  const Statistics s = compute_statistics(kSkewed);
  // numpy
  EXPECT_EQ(s.count, 25u);
  EXPECT_EQ(s.min, 4.211);
  EXPECT_EQ(s.max, 131.358);
  expect_close(s.mean, 29.05268, "mean");
  EXPECT_EQ(s.median, 18.911);
  expect_close(s.q1, 10.941, "q1");
  expect_close(s.q3, 41.337, "q3");
  expect_close(s.p95, 60.77699999999999, "p95");
  expect_close(s.p99, 114.59423999999987, "p99");
  expect_close(s.mad, 12.481000000000002, "mad");
  expect_close(*s.stddev, 27.555394716401118, "stddev");
  expect_close(*s.relative_noise, 0.948463092437638, "relative_noise");
  // Right skew: the mean is pulled above the median.
  EXPECT_GT(s.mean, s.median);
}

TEST(Statistics, QuantilesMatchNumpy) {
  std::vector<double> sorted = kSkewed;
  std::sort(sorted.begin(), sorted.end());
  // numpy: np.quantile(data, q)
  const std::vector<std::pair<double, double>> expected = {
      {0.0, 4.211},        {0.01, 4.51772}, {0.1, 6.548},      {0.25, 10.941},
      {1.0 / 3.0, 13.824}, {0.5, 18.911},   {0.6, 28.8228},    {0.75, 41.337},
      {0.9, 56.7898},      {0.95, 60.777},  {0.99, 114.59424}, {1.0, 131.358}};
  for (const auto& [q, value] : expected) {
    EXPECT_NEAR(quantile_sorted(sorted, q), value, 1e-9) << "q = " << q;
  }
  EXPECT_EQ(quantile_sorted({2.5}, 0.0), 2.5);
  EXPECT_EQ(quantile_sorted({2.5}, 0.73), 2.5);
  EXPECT_EQ(quantile_sorted({1.0, 2.0}, 1.0), 2.0);
  expect_close(quantile_sorted({1.0, 2.0}, 0.3), 1.3, "two values");
}

TEST(Statistics, QuantileRejectsBadInput) {
  EXPECT_NE(error_message([] { quantile_sorted({}, 0.5); }).find("no samples"), std::string::npos);
  for (double q : {-0.1, 1.1, kNaN}) {
    const std::string message = error_message([q] { quantile_sorted({1.0, 2.0}, q); });
    EXPECT_NE(message.find("between 0 and 1"), std::string::npos) << message;
  }
  EXPECT_NE(error_message([] { quantile_sorted({1.0}, 1.5); }).find("got 1.5"), std::string::npos);
}

TEST(Statistics, LargeOffsetDoesNotLoseTheVariance) {
  // The classic cancellation case: a naive sum of squares loses all digits here. numpy:
  // var = 30, mean = 1e9 + 10.
  const Statistics s = compute_statistics({1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16});
  EXPECT_EQ(s.mean, 1e9 + 10);
  expect_close(*s.stddev, 5.477225575051661, "stddev");
  expect_close(s.mad, 4.5, "mad");
  expect_close(s.q1, 1000000006.25, "q1");
}

TEST(Statistics, IdenticalSamplesHaveZeroSpread) {
  const Statistics s = compute_statistics(std::vector<double>(1000, 0.1));
  EXPECT_EQ(s.mean, 0.1);
  EXPECT_EQ(s.median, 0.1);
  EXPECT_EQ(*s.stddev, 0.0);
  EXPECT_EQ(*s.relative_noise, 0.0);
  EXPECT_EQ(s.mad, 0.0);
  EXPECT_EQ(s.median_ci->low, 0.1);
  EXPECT_EQ(s.median_ci->high, 0.1);
}

TEST(Statistics, ExtremeMagnitudesStayFinite) {
  const Statistics huge = compute_statistics({1e308, -1e308, 1e308});
  ASSERT_TRUE(huge.stddev.has_value());
  EXPECT_TRUE(std::isfinite(*huge.stddev));
  expect_close(huge.mean, 1e308 / 3.0, "mean");
  // numpy with the values scaled by 1e-300: std(ddof=1) = 1.1547005383792515e8.
  EXPECT_NEAR(*huge.stddev / 1e308, 1.1547005383792515, 1e-12);
  // Subnormal samples: unscaled, the squared deviations would underflow to zero.
  const Statistics tiny = compute_statistics({std::ldexp(1.0, -1070), std::ldexp(3.0, -1070)});
  EXPECT_EQ(tiny.mean, std::ldexp(1.0, -1069));
  ASSERT_TRUE(tiny.stddev.has_value());
  // sqrt(2) * 2^-1070, to the subnormal spacing 2^-1074 (an unscaled computation gives 0).
  EXPECT_NEAR(*tiny.stddev, std::sqrt(2.0) * std::ldexp(1.0, -1070), std::ldexp(1.0, -1074));
}

TEST(Statistics, ZeroMeanHasNoRelativeNoise) {
  const Statistics s = compute_statistics({-1.0, 1.0});
  EXPECT_EQ(s.mean, 0.0);
  ASSERT_TRUE(s.stddev.has_value());
  expect_close(*s.stddev, std::sqrt(2.0), "stddev");
  EXPECT_FALSE(s.relative_noise.has_value());
}

TEST(Statistics, RejectsNaNNamingTheIndex) {
  const std::string message = error_message([] {
    compute_statistics({1.0, 2.0, 3.0, kNaN, kNaN});
  });
  EXPECT_NE(message.find("sample 3 is NaN"), std::string::npos) << message;
  EXPECT_NE(message.find("finite"), std::string::npos) << message;
}

TEST(Statistics, RejectsInfinityNamingTheIndex) {
  std::string message = error_message([] { compute_statistics({kInf}); });
  EXPECT_NE(message.find("sample 0 is +inf"), std::string::npos) << message;
  message = error_message([] { compute_statistics({1.0, 2.0, -kInf}); });
  EXPECT_NE(message.find("sample 2 is -inf"), std::string::npos) << message;
}

TEST(Statistics, RejectsBadOptions) {
  for (double level : {0.0, 1.0, -0.5, 1.5, kNaN}) {
    StatisticsOptions options;
    options.confidence_level = level;
    const std::string message = error_message([&] { compute_statistics({1.0, 2.0}, options); });
    EXPECT_NE(message.find("confidence_level"), std::string::npos) << message;
  }
  StatisticsOptions options;
  options.bootstrap_resamples = 99;
  const std::string message = error_message([&] { compute_statistics({1.0, 2.0}, options); });
  EXPECT_NE(message.find("bootstrap_resamples"), std::string::npos) << message;
  EXPECT_NE(message.find("got 99"), std::string::npos) << message;
}

TEST(Statistics, BootstrapIntervalMatchesReferenceImplementation) {
  // Computed by an independent Python port of the documented algorithm: xoshiro256** seeded by
  // splitmix64, Lemire's bounded draw on the high 32 bits, resampling the sorted samples,
  // np.median per resample, np.quantile of the resampled medians. Exact equality: the bootstrap
  // must give the same interval on every platform.
  Statistics s = compute_statistics(kSkewed);
  ASSERT_TRUE(s.median_ci.has_value());
  EXPECT_EQ(s.median_ci->low, 11.104);
  EXPECT_EQ(s.median_ci->high, 37.753);

  StatisticsOptions options;
  options.seed = 7;
  options.bootstrap_resamples = 500;
  options.confidence_level = 0.90;
  s = compute_statistics(kSkewed, options);
  EXPECT_EQ(s.median_ci->low, 13.824);
  EXPECT_EQ(s.median_ci->high, 33.755);
  EXPECT_EQ(s.median_ci_level, 0.90);

  s = compute_statistics({10, 2, 8, 4, 6, 12});
  EXPECT_EQ(s.median_ci->low, 3.0);
  EXPECT_EQ(s.median_ci->high, 11.0);
}

TEST(Statistics, BootstrapIsDeterministicAndOrderIndependent) {
  SplitMix64 rng(99);
  std::vector<double> samples(300);
  for (double& x : samples)
    x = 1000.0 + 50.0 * rng.normal();
  const Statistics a = compute_statistics(samples);
  const Statistics b = compute_statistics(samples);
  std::reverse(samples.begin(), samples.end());
  const Statistics reversed = compute_statistics(samples);
  ASSERT_TRUE(a.median_ci.has_value());
  EXPECT_EQ(a.median_ci->low, b.median_ci->low);
  EXPECT_EQ(a.median_ci->high, b.median_ci->high);
  EXPECT_EQ(a.median_ci->low, reversed.median_ci->low);
  EXPECT_EQ(a.median_ci->high, reversed.median_ci->high);
  EXPECT_LT(a.median_ci->low, a.median);
  EXPECT_GT(a.median_ci->high, a.median);

  StatisticsOptions other_seed;
  other_seed.seed = 12345;
  const Statistics c = compute_statistics(samples, other_seed);
  EXPECT_TRUE(c.median_ci->low != a.median_ci->low || c.median_ci->high != a.median_ci->high);
  // A different seed moves the ends a little, not the whole interval.
  EXPECT_NEAR(c.median_ci->low, a.median_ci->low, 5.0);
  EXPECT_NEAR(c.median_ci->high, a.median_ci->high, 5.0);
}

TEST(Statistics, BootstrapCoverageIsNearNominal) {
  // 200 samples of size 50 from N(0, 1), whose median is 0: a 95% interval should cover it in
  // roughly 95% of them (binomial sd at 200 trials is 1.5%).
  SplitMix64 rng(2024);
  int covered = 0;
  constexpr int kTrials = 200;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> samples(50);
    for (double& x : samples)
      x = rng.normal();
    StatisticsOptions options;
    options.seed = static_cast<std::uint64_t>(trial);
    const Statistics s = compute_statistics(samples, options);
    ASSERT_TRUE(s.median_ci.has_value());
    EXPECT_LE(s.median_ci->low, s.median);
    EXPECT_GE(s.median_ci->high, s.median);
    if (s.median_ci->low <= 0.0 && 0.0 <= s.median_ci->high) ++covered;
  }
  const double coverage = static_cast<double>(covered) / kTrials;
  EXPECT_GE(coverage, 0.88);
  EXPECT_LE(coverage, 0.99);
}

// Samples 0, 1, ..., n - 1 shuffled, so that the interval's ends are the order statistics'
// 0-based indices.
std::vector<double> shuffled_ramp(std::size_t n) {
  std::vector<double> samples(n);
  for (std::size_t i = 0; i < n; ++i)
    samples[i] = static_cast<double>(i);
  SplitMix64 rng(5);
  for (std::size_t i = n - 1; i > 0; --i)
    std::swap(samples[i], samples[rng.next() % (i + 1)]);
  return samples;
}

TEST(Statistics, OrderStatisticIntervalAboveTheBootstrapLimit) {
  // Exact binomial (Python integers): for n = 20001 the 95% interval is [x_(9862), x_(10140)]
  // (1-based), 99% is [x_(9818), x_(10184)], 99.9% is [x_(9768), x_(10234)].
  const std::vector<double> samples = shuffled_ramp(20001);
  Statistics s = compute_statistics(samples);
  EXPECT_EQ(s.median_ci_method, "order-statistic");
  EXPECT_EQ(s.median_ci_level, 0.95);
  EXPECT_EQ(s.median, 10000.0);
  ASSERT_TRUE(s.median_ci.has_value());
  EXPECT_EQ(s.median_ci->low, 9861.0);
  EXPECT_EQ(s.median_ci->high, 10139.0);

  StatisticsOptions options;
  options.confidence_level = 0.99;
  s = compute_statistics(samples, options);
  EXPECT_EQ(s.median_ci->low, 9817.0);
  EXPECT_EQ(s.median_ci->high, 10183.0);
  EXPECT_EQ(s.median_ci_level, 0.99);

  options.confidence_level = 0.999;
  s = compute_statistics(samples, options);
  EXPECT_EQ(s.median_ci->low, 9767.0);
  EXPECT_EQ(s.median_ci->high, 10233.0);

  // n = 60001 at 90%: [x_(29799), x_(30203)].
  options.confidence_level = 0.90;
  s = compute_statistics(shuffled_ramp(60001), options);
  EXPECT_EQ(s.median_ci->low, 29798.0);
  EXPECT_EQ(s.median_ci->high, 30202.0);
}

TEST(Statistics, OrderStatisticIntervalForFewSamples) {
  StatisticsOptions options;
  options.bootstrap_max_samples = 0;
  // n = 10 at 95%: [x_(2), x_(9)], the textbook interval (coverage 97.85%).
  Statistics s = compute_statistics(shuffled_ramp(10), options);
  EXPECT_EQ(s.median_ci_method, "order-statistic");
  EXPECT_EQ(s.median_ci->low, 1.0);
  EXPECT_EQ(s.median_ci->high, 8.0);
  EXPECT_EQ(s.median_ci_level, 0.95);
  // n = 5 cannot reach 95%: the widest interval covers with 1 - 2 / 2^5 = 0.9375, and the level
  // says so.
  s = compute_statistics(shuffled_ramp(5), options);
  EXPECT_EQ(s.median_ci->low, 0.0);
  EXPECT_EQ(s.median_ci->high, 4.0);
  EXPECT_DOUBLE_EQ(s.median_ci_level, 0.9375);
}

TEST(Statistics, BootstrapAndOrderStatisticAgreeAtTheLimit) {
  SplitMix64 rng(11);
  std::vector<double> samples(20000);
  for (double& x : samples)
    x = 100.0 + rng.normal();
  StatisticsOptions order;
  order.bootstrap_max_samples = 0;

  const auto start = std::chrono::steady_clock::now();
  const Statistics boot = compute_statistics(samples);  // the default bootstrap at its largest
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("bootstrap_seconds", std::to_string(seconds));
  std::printf("bootstrap of %zu samples x 2000 resamples: %.3f s\n", samples.size(), seconds);

  const Statistics exact = compute_statistics(samples, order);
  EXPECT_EQ(boot.median_ci_method, "bootstrap");
  EXPECT_EQ(exact.median_ci_method, "order-statistic");
  // Both half-widths are about 1.96 * sqrt(pi / 2) / sqrt(n) = 0.0174; they agree to a fraction
  // of that.
  const double boot_width = boot.median_ci->high - boot.median_ci->low;
  const double exact_width = exact.median_ci->high - exact.median_ci->low;
  EXPECT_NEAR(boot_width, exact_width, 0.2 * exact_width);
  EXPECT_NEAR(boot.median_ci->low, exact.median_ci->low, 0.2 * exact_width);
  EXPECT_NEAR(boot.median_ci->high, exact.median_ci->high, 0.2 * exact_width);
}

// The interval is the costly statistic; a caller that never shows it (compare, statistics that
// a merge recomputes) skips it, and every other statistic is the same.
TEST(Statistics, WithoutTheMedianIntervalTheBootstrapIsSkipped) {
  SplitMix64 rng(5);
  std::vector<double> samples(20000);
  for (double& x : samples)
    x = 100.0 + rng.normal();
  StatisticsOptions skip;
  skip.median_interval = false;
  const Statistics full = compute_statistics(samples);
  const Statistics fast = compute_statistics(samples, skip);
  ASSERT_TRUE(full.median_ci.has_value());
  EXPECT_FALSE(fast.median_ci.has_value());
  EXPECT_EQ(fast.median_ci_method, "");
  EXPECT_EQ(fast.count, full.count);
  EXPECT_EQ(fast.median, full.median);
  EXPECT_EQ(fast.mean, full.mean);
  EXPECT_EQ(fast.min, full.min);
  EXPECT_EQ(fast.max, full.max);
  EXPECT_EQ(fast.q1, full.q1);
  EXPECT_EQ(fast.q3, full.q3);
  EXPECT_EQ(fast.p95, full.p95);
  EXPECT_EQ(fast.p99, full.p99);
  EXPECT_EQ(fast.mad, full.mad);
  EXPECT_EQ(fast.stddev, full.stddev);
  EXPECT_EQ(fast.relative_noise, full.relative_noise);
}

}  // namespace
}  // namespace kerntime

namespace kerntime {
namespace {

// The one median: any order in, quantile_sorted(sorted, 0.5) out, bit for bit.
TEST(Median, IsTheTypeSevenMedianOfAnyOrder) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({7.0}), 7.0);
  EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  std::vector<double> values;
  std::uint64_t state = 12345;
  for (int i = 0; i < 1000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    values.push_back(static_cast<double>(state >> 11) * 1e-9);
  }
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(median(values), quantile_sorted(sorted, 0.5));
  values.pop_back();
  sorted = values;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(median(values), quantile_sorted(sorted, 0.5));
}

}  // namespace
}  // namespace kerntime
