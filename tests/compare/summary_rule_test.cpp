// SPDX-License-Identifier: Apache-2.0
// compare_summaries(): entries whose files hold a sample size, a mean and a noise figure instead
// of samples (NVBench --json) get the verdicts their samples would, with the same allowance for
// a shift between processes, and the reason says so and gives nvbench_compare.py's status.
#include "compare/summary_rule.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime::compare_detail {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

SummaryFigures side(double mean_ns, std::uint64_t count = 500,
                    std::optional<double> noise = 0.005) {
  return {count, mean_ns, noise};
}

RunsComparison judge(const SummaryFigures& a, const SummaryFigures& b) {
  return compare_summaries(a, b, RunsRuleOptions{}, "NVBench's summaries");
}

TEST(SummaryRule, IdenticalSummariesAreSame) {
  const RunsComparison r = judge(side(10'000), side(10'000));
  EXPECT_EQ(r.verdict, Verdict::same) << r.reason;
  EXPECT_DOUBLE_EQ(r.ratio, 1.0);
  EXPECT_FALSE(r.between_runs);
  // Welch's interval of 500 + 500 samples at 0.5 % noise is +-0.08 %; the 400 ns allowance of
  // a 10 us kernel (4 %) widens it to about [-3.9 %, +4.1 %].
  EXPECT_NEAR(r.ratio_ci.low, std::exp(-2.5808 * std::sqrt(2 * 0.005 * 0.005 / 500)) / 1.04, 1e-4);
  EXPECT_NEAR(r.ratio_ci.high, std::exp(2.5808 * std::sqrt(2 * 0.005 * 0.005 / 500)) * 1.04, 1e-4);
  EXPECT_NEAR(r.degrees_of_freedom, 998.0, 1e-6);
  EXPECT_TRUE(contains(r.reason,
                       "NVBench's summaries: 500 and 500 samples, noise 0.50% and "
                       "0.50%"))
      << r.reason;
  EXPECT_TRUE(contains(r.reason, "nvbench_compare.py: SAME")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "400 ns (4.0%) shift between processes")) << r.reason;
}

TEST(SummaryRule, TenPercentSlowerRegresses) {
  const RunsComparison r = judge(side(10'000), side(11'000));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.reason;
  EXPECT_NEAR(r.ratio, 1.1, 1e-12);
  EXPECT_GT(r.ratio_ci.low, 1.025);
  EXPECT_LT(r.p_value, 1e-15);
  EXPECT_TRUE(contains(r.reason, "means 10.0% slower")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "nvbench_compare.py: SLOW")) << r.reason;
}

TEST(SummaryRule, TenPercentFasterImproves) {
  const RunsComparison r = judge(side(100'000), side(90'000));
  EXPECT_EQ(r.verdict, Verdict::improved) << r.reason;
  EXPECT_TRUE(contains(r.reason, "nvbench_compare.py: FAST")) << r.reason;
  // Over 26.7 us the relative allowance (1.5 %) is the larger.
  EXPECT_TRUE(contains(r.reason, "1500 ns (1.5%) shift")) << r.reason;
}

TEST(SummaryRule, AChangeTheAllowanceCouldExplainIsInconclusive) {
  // 6 % on a 10 us kernel: beyond the threshold, but the interval's low end (+1.8 %) is not
  // beyond half of it once a 400 ns shift between processes is allowed for.
  const RunsComparison r = judge(side(10'000), side(10'600));
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.reason;
  EXPECT_TRUE(contains(r.reason,
                       "a shift between processes of up to 400 ns (4.0%) cannot be "
                       "told from a change: run more processes"))
      << r.reason;
  // NVBench's own rule would call it a failure: 6 % is beyond 0.5 % of noise.
  EXPECT_TRUE(contains(r.reason, "nvbench_compare.py: SLOW")) << r.reason;
}

TEST(SummaryRule, NoiseWiderThanTheThresholdIsInconclusiveAndSaysSo) {
  const RunsComparison r = judge(side(10'000, 10, 0.2), side(10'000, 10, 0.2));
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.reason;
  EXPECT_TRUE(contains(r.reason,
                       "the noise alone leaves the 99% interval wider than the 5% "
                       "threshold"))
      << r.reason;
  EXPECT_TRUE(contains(r.reason, "nvbench_compare.py: SAME")) << r.reason;
}

TEST(SummaryRule, ASideWithoutNoiseBorrowsTheOthersAndNoneGivesNoVerdict) {
  const RunsComparison borrowed = judge(side(10'000, 500, std::nullopt), side(11'000));
  EXPECT_EQ(borrowed.verdict, Verdict::regressed) << borrowed.reason;
  EXPECT_TRUE(contains(borrowed.reason, "noise none and 0.50%")) << borrowed.reason;

  const RunsComparison none =
      judge(side(10'000, 500, std::nullopt), side(11'000, 500, std::nullopt));
  EXPECT_EQ(none.verdict, Verdict::inconclusive) << none.reason;
  EXPECT_TRUE(contains(none.reason, "neither side has a noise figure")) << none.reason;
  EXPECT_TRUE(contains(none.reason, "nvbench_compare.py: ????")) << none.reason;
  EXPECT_TRUE(std::isinf(none.ratio_ci.high));
}

TEST(SummaryRule, OneSampleOrABadMeanGivesNoVerdict) {
  const RunsComparison one = judge(side(10'000, 1), side(10'000));
  EXPECT_EQ(one.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(one.reason, "fewer than 2 samples")) << one.reason;
  const RunsComparison zero = judge(side(0.0), side(10'000));
  EXPECT_EQ(zero.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(zero.reason, "a mean is zero or not finite")) << zero.reason;
}

TEST(SummaryRule, ZeroNoiseIsFlooredByTheTimerQuantum) {
  // Every sample alike: the quantum (32 ns on a 10 us kernel) still gives the interval a width,
  // so the same mean is `same` and a 10 % change is still a regression.
  const RunsComparison same = judge(side(10'000, 50, 0.0), side(10'000, 50, 0.0));
  EXPECT_EQ(same.verdict, Verdict::same) << same.reason;
  EXPECT_GT(same.ratio_ci.high, 1.04);
  const RunsComparison slower = judge(side(10'000, 50, 0.0), side(11'000, 50, 0.0));
  EXPECT_EQ(slower.verdict, Verdict::regressed) << slower.reason;
}

// Through compare(): one side summaries only (NVBench --json), the other its samples (--jsonbin):
// the samples' side is summarized from its samples, and the reason says so.
TEST(SummaryRule, ASideOfSamplesAgainstASideOfSummariesIsJudgedFromSummaries) {
  Entry with_samples;
  with_samples.name = "copy/cold";
  with_samples.timer = "nvbench-cold";
  for (int i = 0; i < 400; ++i)
    with_samples.samples.push_back(20'000.0 * (1.0 + 0.004 * ((i % 21) - 10) / 10.0));
  with_samples.statistics = compute_statistics(with_samples.samples);
  Entry summarized;
  summarized.name = "copy/cold";
  summarized.timer = "nvbench-cold";
  summarized.samples = {22'000.0};
  summarized.statistics = compute_statistics(summarized.samples);
  summarized.summary_only = SummaryOnly{400, 22'000.0, 0.004};
  Report baseline;
  baseline.entries = {with_samples};
  Report candidate;
  candidate.entries = {summarized};
  const Comparison c = compare(baseline, candidate);
  ASSERT_EQ(c.entries.size(), 1u);
  EXPECT_EQ(c.entries[0].verdict, Verdict::regressed) << c.entries[0].reason;
  EXPECT_TRUE(contains(c.entries[0].reason,
                       "NVBench's summaries (the baseline's computed from its samples): 400 and "
                       "400 samples"))
      << c.entries[0].reason;
  EXPECT_TRUE(c.failed());

  // The same mean on both sides: same.
  candidate.entries[0].summary_only->mean = 20'000.0;
  candidate.entries[0].samples = {20'000.0};
  const Comparison same = compare(baseline, candidate);
  EXPECT_EQ(same.entries[0].verdict, Verdict::same) << same.entries[0].reason;
}

}  // namespace
}  // namespace kerntime::compare_detail
