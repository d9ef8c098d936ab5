// SPDX-License-Identifier: Apache-2.0
// compare_runs() on small hand-made cases: the process is the unit, the spread between processes
// sets the level, one run per side falls back to the within-run rule with an allowance.
#include "compare/runs_rule.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

namespace kerntime::compare_detail {
namespace {

// A run of `count` samples around `median` ns with a small deterministic spread (+-0.5 %).
std::vector<double> run_around(double median, std::size_t count = 31) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < count; ++i) {
    const double offset = (static_cast<double>(i) / static_cast<double>(count - 1) - 0.5) * 0.01;
    samples.push_back(median * (1.0 + offset));
  }
  return samples;
}

Runs runs_at(const std::vector<double>& medians) {
  Runs runs;
  for (double m : medians)
    runs.push_back(run_around(m));
  return runs;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RunsRule, StableKernelUnchangedIsSame) {
  const Runs a = runs_at({2500, 2500, 2500, 2500, 2500});
  const RunsComparison r = compare_runs(a, a);
  EXPECT_EQ(r.verdict, Verdict::same) << r.reason;
  EXPECT_TRUE(r.between_runs);
  EXPECT_DOUBLE_EQ(r.ratio, 1.0);
  EXPECT_EQ(r.degrees_of_freedom, 8.0);
  // The floors keep the spread above zero even though every run median is identical.
  EXPECT_GT(r.run_sd, 0.0);
  EXPECT_LT(r.detectable_change, 0.01);
}

TEST(RunsRule, TenPercentSlowerShortStableKernelIsRegressed) {
  // 2.5 us + 10 %: 250 ns, which the old 500 ns floor hid.
  const RunsComparison r = compare_runs(runs_at({2500, 2500, 2500, 2500, 2500}),
                                        runs_at({2750, 2750, 2750, 2750, 2750}));
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.reason;
  EXPECT_NEAR(r.ratio, 1.10, 1e-12);
  EXPECT_GT(r.ratio_ci.low, 1.09);
  EXPECT_LT(r.p_value, 1e-6);
  EXPECT_TRUE(contains(r.reason, "10.0% slower")) << r.reason;
}

TEST(RunsRule, FasterIsImproved) {
  const RunsComparison r = compare_runs(runs_at({10000, 10010, 9990}), runs_at({9000, 9010, 8990}));
  EXPECT_EQ(r.verdict, Verdict::improved) << r.reason;
}

TEST(RunsRule, BimodalKernelIsInconclusiveNotRegressed) {
  // saxpy 1Mi on the H200: 5.66 or 5.98 us from one process to the next, same build.
  const Runs a = runs_at({5660, 5980, 5660, 5660, 5980});
  const Runs b = runs_at({5980, 5980, 5660, 5980, 5980});
  const RunsComparison r = compare_runs(a, b);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.reason;
  EXPECT_NEAR(r.run_spread, 5980.0 / 5660.0 - 1.0, 1e-9);
  EXPECT_GE(r.detectable_change, 0.05);
  EXPECT_TRUE(contains(r.reason, "per-process medians spread 5.7%")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "cannot be told from noise")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "run more processes")) << r.reason;
}

TEST(RunsRule, SpreadFromOneSideWhenTheOtherHasOneRun) {
  const RunsComparison r = compare_runs(runs_at({10000, 10050, 9950}), runs_at({11000}));
  EXPECT_TRUE(r.between_runs);
  EXPECT_EQ(r.degrees_of_freedom, 2.0);
  EXPECT_EQ(r.baseline_runs, 3u);
  EXPECT_EQ(r.candidate_runs, 1u);
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.reason;
}

TEST(RunsRule, OneRunPerSideShortKernelCannotBeJudged) {
  // 250 ns is within what a short kernel shifts between processes: no verdict from one run.
  const RunsComparison r = compare_runs({run_around(2500)}, {run_around(2750)});
  EXPECT_FALSE(r.between_runs);
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.reason;
  EXPECT_TRUE(contains(r.reason, "one run per side")) << r.reason;
  EXPECT_TRUE(contains(r.reason, "400 ns")) << r.reason;
}

TEST(RunsRule, OneRunPerSideLongKernelIsJudged) {
  const RunsComparison slower = compare_runs({run_around(100000)}, {run_around(110000)});
  EXPECT_EQ(slower.verdict, Verdict::regressed) << slower.reason;
  EXPECT_TRUE(contains(slower.reason, "one run per side")) << slower.reason;
  const RunsComparison same = compare_runs({run_around(100000)}, {run_around(100000)});
  EXPECT_EQ(same.verdict, Verdict::same) << same.reason;
  // The interval is widened by the 1.5 % allowance on both ends.
  EXPECT_LT(same.ratio_ci.low, 1.0 / 1.015 + 1e-9);
  EXPECT_GT(same.ratio_ci.high, 1.015 - 1e-9);
}

TEST(RunsRule, QuantizedIdenticalSamplesDoNotClaimZeroNoise) {
  const Runs a(3, std::vector<double>(30, 2048.0));
  const Runs b(3, std::vector<double>(30, 2080.0));  // one 32 ns quantum, 1.6 %
  const RunsComparison r = compare_runs(a, b);
  EXPECT_GT(r.run_sd, 0.0);
  EXPECT_TRUE(std::isfinite(r.p_value));
  EXPECT_NE(r.verdict, Verdict::regressed) << r.reason;  // under the 5 % threshold
}

TEST(RunsRule, InvalidInput) {
  EXPECT_THROW(compare_runs({}, runs_at({1000})), Error);
  EXPECT_THROW(compare_runs(runs_at({1000}), Runs{{}}), Error);
  const RunsComparison r = compare_runs(runs_at({1000, 1000}), Runs{{1000.0, 0.0}});
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(r.reason, "zero")) << r.reason;
}

}  // namespace
}  // namespace kerntime::compare_detail
