// SPDX-License-Identifier: Apache-2.0
// The decision rule: each verdict, its reason, the gate, and what counts as input.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

#include "compare/thresholds.hpp"
#include "samples.hpp"

namespace kerntime {
namespace {

using testing::make_entry;
using testing::simulate_run;

Report report_of(std::vector<Entry> entries) {
  Report report;
  report.entries = std::move(entries);
  return report;
}

// Quiet noise: no outliers, 1 % spread, so the planted changes are unambiguous.
const testing::NoiseModel kQuiet{0.01, 0.0, 0.0, 0.0, 0.0};

EntryComparison compare_one(double factor, std::size_t n = 30, const CompareOptions& options = {},
                            const testing::NoiseModel& noise = kQuiet) {
  std::mt19937_64 rng(42);
  const Report a = report_of({make_entry("k", simulate_run(rng, n, 100000.0, 1.0, noise))});
  const Report b = report_of({make_entry("k", simulate_run(rng, n, 100000.0, factor, noise))});
  const Comparison c = compare(a, b, options);
  EXPECT_EQ(c.entries.size(), 1u);
  return c.entries.front();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CompareVerdict, PlantedSlowdownRegresses) {
  const EntryComparison e = compare_one(1.10);
  EXPECT_EQ(e.verdict, Verdict::regressed) << e.reason;
  ASSERT_TRUE(e.ratio && e.ratio_ci && e.p_value);
  EXPECT_NEAR(*e.ratio, 1.10, 0.01);
  EXPECT_LT(e.ratio_ci->low, 1.10);
  EXPECT_GT(e.ratio_ci->high, 1.10);
  EXPECT_GT(e.ratio_ci->low, 1.05);
  EXPECT_LT(*e.p_value, 1e-6);
  EXPECT_TRUE(e.exact_test);  // 30 x 30 continuous samples: no ties
  EXPECT_TRUE(e.fails);
  EXPECT_TRUE(contains(e.reason, "slower")) << e.reason;
}

TEST(CompareVerdict, EachSideRatesItsDeclaredWorkAtItsOwnMedian) {
  Entry a = make_entry("copy", {1000.0, 2000.0, 3000.0});
  Entry b = make_entry("copy", {4000.0, 4000.0, 4000.0});
  MeasurementInfo info;
  info.work = {8000.0, 2.0e6, 1000.0};
  info.peak_bandwidth_gb_per_s = 16.0;
  a.measurement = std::make_shared<const MeasurementInfo>(info);
  b.measurement = a.measurement;
  Entry plain = make_entry("plain", {1000.0, 1000.0});
  const Comparison c = compare(report_of({a, plain}), report_of({b, plain}));
  ASSERT_EQ(c.entries.size(), 2u);
  const SampleSummary& base = *c.entries[0].baseline;
  const SampleSummary& cand = *c.entries[0].candidate;
  EXPECT_EQ(base.throughput.gb_per_s, 4.0);  // 8000 bytes in 2000 ns
  EXPECT_EQ(base.throughput.peak_bandwidth_percent, 25.0);
  EXPECT_EQ(base.throughput.tflop_per_s, 1.0);  // 2e6 flops in 2000 ns
  EXPECT_EQ(cand.throughput.gb_per_s, 2.0);
  EXPECT_EQ(base.throughput.elements_per_s, 5e8);  // 1000 elements in 2000 ns
  EXPECT_EQ(cand.throughput.elements_per_s, 2.5e8);
  EXPECT_FALSE(c.entries[1].baseline->throughput.gb_per_s.has_value());
  EXPECT_FALSE(c.entries[1].baseline->throughput.elements_per_s.has_value());
}

TEST(CompareVerdict, PlantedSpeedupImproves) {
  const EntryComparison e = compare_one(0.90);
  EXPECT_EQ(e.verdict, Verdict::improved) << e.reason;
  EXPECT_FALSE(e.fails);
  EXPECT_TRUE(contains(e.reason, "faster")) << e.reason;
}

TEST(CompareVerdict, NoChangeIsSame) {
  const EntryComparison e = compare_one(1.0);
  EXPECT_EQ(e.verdict, Verdict::same) << e.reason;
  ASSERT_TRUE(e.ratio_ci);
  EXPECT_GE(e.ratio_ci->low, 0.95);
  EXPECT_LE(e.ratio_ci->high, 1.05);
}

TEST(CompareVerdict, SignificantButSmallChangeIsSame) {
  // 2 % slower with 1 % noise: real, but within the 5 % threshold.
  const EntryComparison e = compare_one(1.02, 200);
  EXPECT_EQ(e.verdict, Verdict::same) << e.reason;
  ASSERT_TRUE(e.p_value);
  EXPECT_LT(*e.p_value, 0.01);
  EXPECT_TRUE(contains(e.reason, "within the 5% threshold")) << e.reason;
}

TEST(CompareVerdict, PerEntryThresholdCatchesSmallerChanges) {
  // 4 %, not 2 %: with one run per side a 100 us kernel's change must also clear the 1.5 %
  // allowance for a shift between processes (docs/ci.md), and 4 % is under the default 5 %.
  CompareOptions options;
  options.thresholds.add("k=1%");
  const EntryComparison e = compare_one(1.04, 200, options);
  EXPECT_EQ(e.verdict, Verdict::regressed) << e.reason;
  EXPECT_DOUBLE_EQ(e.threshold, 0.01);
}

TEST(CompareVerdict, NoisyDataIsInconclusiveNotSame) {
  // 20 % spread and 10 samples: the interval cannot exclude a 5 % change either way.
  const testing::NoiseModel noisy{0.20, 0.0, 0.0, 0.0, 0.0};
  const EntryComparison e = compare_one(1.0, 10, {}, noisy);
  EXPECT_EQ(e.verdict, Verdict::inconclusive) << e.reason;
  EXPECT_TRUE(contains(e.reason, "collect more samples")) << e.reason;
  EXPECT_FALSE(e.fails);
}

TEST(CompareVerdict, TooFewSamplesIsInconclusiveWithTheCounts) {
  const EntryComparison e = compare_one(1.5, 4);
  EXPECT_EQ(e.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(e.reason, "too few samples (4 baseline, 4 candidate)")) << e.reason;
  EXPECT_TRUE(contains(e.reason, "at least 5")) << e.reason;
  CompareOptions strict;
  strict.min_samples = 40;
  const EntryComparison f = compare_one(1.5, 30, strict);
  EXPECT_EQ(f.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(f.reason, "at least 40")) << f.reason;
}

TEST(CompareVerdict, FiveClearlySeparatedSamplesAreEnough) {
  const EntryComparison e = compare_one(1.5, 5);
  EXPECT_EQ(e.verdict, Verdict::regressed) << e.reason;
}

TEST(CompareVerdict, ConstantSamplesCompareExactly) {
  const Report a = report_of({make_entry("k", std::vector<double>(20, 100000.0))});
  const Report b = report_of({make_entry("k", std::vector<double>(20, 110000.0))});
  const EntryComparison e = compare(a, b).entries.front();
  EXPECT_EQ(e.verdict, Verdict::regressed) << e.reason;
  ASSERT_TRUE(e.ratio_ci);
  // exp(log(110000) - log(100000)), widened by the one-run allowance of 1.5 % (docs/ci.md).
  EXPECT_NEAR(e.ratio_ci->low, 1.1 / 1.015, 1e-12);
  EXPECT_NEAR(e.ratio_ci->high, 1.1 * 1.015, 1e-12);
  EXPECT_FALSE(e.exact_test);  // ties
  const EntryComparison same = compare(a, a).entries.front();
  EXPECT_EQ(same.verdict, Verdict::same) << same.reason;
  EXPECT_DOUBLE_EQ(*same.p_value, 1.0);
}

TEST(CompareVerdict, UnitsAreConvertedAndTimersMustMatch) {
  std::mt19937_64 rng(3);
  // 100 us: long enough that the one-run allowance (1.5 %) leaves room for "same" at 5 %.
  Entry a = make_entry("k", simulate_run(rng, 30, 100000.0, 1.0, kQuiet));
  Entry b = make_entry("k", simulate_run(rng, 30, 100.0, 1.0, kQuiet));  // 100 us in us
  b.unit = "us";
  EntryComparison e = compare(report_of({a}), report_of({b})).entries.front();
  EXPECT_EQ(e.verdict, Verdict::same) << e.reason;
  EXPECT_NEAR(*e.ratio, 1.0, 0.02);

  b.unit = "bytes";
  e = compare(report_of({a}), report_of({b})).entries.front();
  EXPECT_EQ(e.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(e.reason, "units differ")) << e.reason;

  b.unit = "ns";
  a.timer = "cuda-event";
  b.timer = "cupti";
  e = compare(report_of({a}), report_of({b})).entries.front();
  EXPECT_EQ(e.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(e.reason, "timers differ (baseline cuda-event, candidate cupti)"))
      << e.reason;
}

TEST(CompareVerdict, HostTimeRangesAllowForTheirShiftBetweenProcesses) {
  // kerntime run's NVTX ranges hold host time: with one run per side a 17 % slower step (seen
  // between two processes of the same program) is not a regression, a 60 % slower one is.
  std::mt19937_64 rng(7);
  const auto verdict = [&](double factor, const std::string& timer) {
    Entry a = make_entry("nvtx:step", simulate_run(rng, 200, 1'100'000.0, 1.0, kQuiet));
    Entry b = make_entry("nvtx:step", simulate_run(rng, 200, 1'100'000.0, factor, kQuiet));
    a.timer = timer;
    b.timer = timer;
    const Comparison c = compare(report_of({a}), report_of({b}));
    return c.entries.front();
  };
  const EntryComparison shifted = verdict(1.17, "nvtx-range");
  EXPECT_NE(shifted.verdict, Verdict::regressed) << shifted.reason;
  EXPECT_FALSE(shifted.fails);
  EXPECT_TRUE(contains(shifted.reason, "(25.0%)")) << shifted.reason;
  const EntryComparison slower = verdict(1.60, "nvtx-range");
  EXPECT_EQ(slower.verdict, Verdict::regressed) << slower.reason;
  // Nor can one run per side show a range unchanged: within the allowance it is inconclusive,
  // and says to run more processes (with several, their spread is measured instead).
  const EntryComparison unchanged = verdict(1.0, "nvtx-range");
  EXPECT_EQ(unchanged.verdict, Verdict::inconclusive) << unchanged.reason;
  EXPECT_FALSE(unchanged.fails);
  EXPECT_TRUE(contains(unchanged.reason, "run more processes")) << unchanged.reason;
  // The same change of GPU time is one.
  EXPECT_EQ(verdict(1.17, "cupti-kernel").verdict, Verdict::regressed);
}

TEST(CompareVerdict, NonPositiveSamplesAreInconclusive) {
  std::vector<double> samples(10, 100.0);
  samples[3] = 0.0;
  const Report a = report_of({make_entry("k", std::vector<double>(10, 100.0))});
  const Report b = report_of({make_entry("k", samples)});
  const EntryComparison e = compare(a, b).entries.front();
  EXPECT_EQ(e.verdict, Verdict::inconclusive);
  EXPECT_TRUE(contains(e.reason, "zero or negative")) << e.reason;
}

TEST(CompareVerdict, AddedRemovedAndTheGate) {
  std::mt19937_64 rng(5);
  const auto run = [&] { return simulate_run(rng, 30, 1000.0, 1.0, kQuiet); };
  const Report a = report_of({make_entry("kept", run()), make_entry("gone", run())});
  const Report b = report_of({make_entry("new", run()), make_entry("kept", run())});
  Comparison c = compare(a, b);
  ASSERT_EQ(c.entries.size(), 3u);
  EXPECT_EQ(c.entries[0].name, "kept");
  EXPECT_EQ(c.entries[1].name, "gone");
  EXPECT_EQ(c.entries[1].verdict, Verdict::removed);
  EXPECT_FALSE(c.entries[1].candidate.has_value());
  EXPECT_EQ(c.entries[2].name, "new");
  EXPECT_EQ(c.entries[2].verdict, Verdict::added);
  EXPECT_FALSE(c.entries[2].baseline.has_value());
  EXPECT_FALSE(c.failed());
  EXPECT_EQ(c.count(Verdict::added), 1u);
  EXPECT_EQ(c.count(Verdict::removed), 1u);

  CompareOptions options;
  options.fail_on_removed = true;
  c = compare(a, b, options);
  EXPECT_TRUE(c.failed());
  EXPECT_TRUE(c.entries[1].fails);
  EXPECT_FALSE(c.entries[2].fails);
}

TEST(CompareVerdict, InconclusiveFailsOnlyWhenAsked) {
  const Report a = report_of({make_entry("k", {100, 101, 102})});
  CompareOptions options;
  EXPECT_FALSE(compare(a, a, options).failed());
  options.fail_on_inconclusive = true;
  EXPECT_TRUE(compare(a, a, options).failed());
}

TEST(CompareVerdict, RejectsBadOptionsAndDuplicateNames) {
  const Report a = report_of({make_entry("k", {1, 2, 3, 4, 5})});
  CompareOptions options;
  options.alpha = 0.0;
  EXPECT_THROW(compare(a, a, options), Error);
  options.alpha = 0.7;
  EXPECT_THROW(compare(a, a, options), Error);
  options = {};
  options.min_samples = 0;
  EXPECT_THROW(compare(a, a, options), Error);
  const Report twice = report_of({make_entry("k", {1, 2}), make_entry("k", {3, 4})});
  EXPECT_THROW(compare(twice, a), Error);
}

TEST(CompareVerdict, WarnsAboutUnusedPatternsAndReportWarnings) {
  Report a = report_of({make_entry("gemm", {1, 2, 3, 4, 5})});
  a.warnings.push_back("3 samples throttled");
  CompareOptions options;
  options.thresholds.add("gem/*=10%");
  const Comparison c = compare(a, a, options);
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0], "Baseline: 3 samples throttled");
  EXPECT_EQ(c.warnings[1], "Candidate: 3 samples throttled");
  EXPECT_EQ(c.warnings[2], "Threshold pattern 'gem/*' matches no entry.");
}

}  // namespace
}  // namespace kerntime

namespace kerntime {
namespace {

TEST(CompareMinChange, ShortKernelsWithOneRunPerSideAreNotJudgedOnTheirSamples) {
  // A 3.7 us kernel 8 % slower between two processes: 0.29 us, what an H200 showed between two
  // processes of one build. With one run per side that is within the allowance for a process
  // shift (400 ns), so it is inconclusive, never regressed; the fixed 500 ns floor that used
  // to call it "same" is gone (with runs, a real 8 % slowdown of a stable kernel is caught).
  std::mt19937_64 rng(7);
  const Report a = report_of({make_entry("short", simulate_run(rng, 30, 3700.0, 1.0, kQuiet))});
  const Report b = report_of({make_entry("short", simulate_run(rng, 30, 3700.0, 1.08, kQuiet))});
  const Comparison c = compare(a, b);
  ASSERT_EQ(c.entries.size(), 1u);
  EXPECT_EQ(c.entries[0].verdict, Verdict::inconclusive) << c.entries[0].reason;
  EXPECT_TRUE(contains(c.entries[0].reason, "one run per side")) << c.entries[0].reason;
  EXPECT_FALSE(c.failed());
  EXPECT_EQ(c.notes.size(), 1u);
  EXPECT_DOUBLE_EQ(CompareOptions{}.min_change_ns, 0.0);
}

TEST(CompareMinChange, LargerChangesAreJudgedAsBefore) {
  const EntryComparison slower = compare_one(1.10);  // 10 us on 100 us
  EXPECT_EQ(slower.verdict, Verdict::regressed) << slower.reason;
}

TEST(CompareMinChange, NegativeFloorIsRejected) {
  CompareOptions options;
  options.min_change_ns = -1.0;
  EXPECT_THROW(compare(report_of({}), report_of({}), options), Error);
}

TEST(ParseDuration, UnitsAndRejections) {
  EXPECT_DOUBLE_EQ(parse_duration_ns("500ns"), 500.0);
  EXPECT_DOUBLE_EQ(parse_duration_ns("0.5us"), 500.0);
  EXPECT_DOUBLE_EQ(parse_duration_ns(" 2 ms "), 2e6);
  EXPECT_DOUBLE_EQ(parse_duration_ns("1s"), 1e9);
  EXPECT_DOUBLE_EQ(parse_duration_ns("0"), 0.0);
  EXPECT_THROW(parse_duration_ns("500"), Error);  // a unit is required
  EXPECT_THROW(parse_duration_ns("-1us"), Error);
  EXPECT_THROW(parse_duration_ns("fast"), Error);
}

TEST(CompareMinChange, SetFromADuration) {
  CompareOptions options;
  options.set_min_change("0.5us");
  EXPECT_DOUBLE_EQ(options.min_change_ns, 500.0);
  EXPECT_THROW(options.set_min_change("500"), Error);
}

TEST(ComparePairing, NoNameInCommonMakesTheComparisonUnusable) {
  CompareOptions options;
  options.baseline_source = "base.json";
  options.candidate_source = "new.json";
  const Comparison c = compare(report_of({testing::make_entry("a", {1, 2, 3})}),
                               report_of({testing::make_entry("b", {1, 2, 3})}), options);
  EXPECT_FALSE(c.usable());
  EXPECT_EQ(c.unusable_reason,
            "base.json and new.json have no entry names in common; is base.json the right "
            "baseline?");
  EXPECT_EQ(c.baseline_source, "base.json");
  EXPECT_EQ(c.candidate_source, "new.json");
}

TEST(ComparePairing, OneCommonNameOrAnEmptySideIsUsable) {
  const Entry a = testing::make_entry("a", {1, 2, 3});
  const Entry b = testing::make_entry("b", {1, 2, 3});
  EXPECT_TRUE(compare(report_of({a, b}), report_of({b})).usable());
  EXPECT_TRUE(compare(report_of({}), report_of({b})).usable());
  EXPECT_TRUE(compare(report_of({a}), report_of({})).usable());
}

}  // namespace
}  // namespace kerntime

namespace kerntime {
namespace {

// Ten repetitions of a 4 us benchmark, the same on both sides, one run (process) per side.
Report four_microseconds(const std::string& timer) {
  Entry e = testing::make_entry("BM_copy/64", std::vector<double>(10, 4000.0));
  e.timer = timer;
  Report r;
  r.entries = {e};
  return r;
}

// The allowance for a shift between processes was measured on GPU kernels: a Google Benchmark
// timing (host CPU time) gets the one of CPU benchmarks (none, docs/ci.md), so identical files
// are the same, a 3 % shift of a whole process is not a regression and a 10 % slowdown is.
TEST(CompareProcessAllowance, GoogleBenchmarkTimesGetTheirOwnAndIdenticalFilesAreSame) {
  const Comparison c =
      compare(four_microseconds("google-benchmark"), four_microseconds("google-benchmark"));
  ASSERT_EQ(c.entries.size(), 1u);
  EXPECT_EQ(c.entries[0].verdict, Verdict::same) << c.entries[0].reason;
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.back().find("0% for CPU timings: Google Benchmark, NVBench's cpu_only, whose "
                                "processes moved by up to 3.3% on a quiet CI machine and 8.1% on "
                                "an H200 host; --process-allowance 8% covers such a host"),
            std::string::npos)
      << c.notes.back();

  Report shifted = four_microseconds("google-benchmark");
  for (double& v : shifted.entries[0].samples)
    v *= 1.03;
  const Comparison moved = compare(four_microseconds("google-benchmark"), shifted);
  EXPECT_NE(moved.entries[0].verdict, Verdict::regressed) << moved.entries[0].reason;
  Report slower = four_microseconds("google-benchmark");
  for (double& v : slower.entries[0].samples)
    v *= 1.10;
  const Comparison regressed = compare(four_microseconds("google-benchmark"), slower);
  EXPECT_EQ(regressed.entries[0].verdict, Verdict::regressed) << regressed.entries[0].reason;
}

// The same 4 us on a GPU timer: the 400 ns allowance is 10 % there, wider than a 5 %
// threshold, until --process-allowance says otherwise.
TEST(CompareProcessAllowance, GpuTimersGetTheMeasuredOneUnlessOverridden) {
  const Report gpu = four_microseconds("cupti-kernel");
  EXPECT_EQ(compare(gpu, gpu).entries[0].verdict, Verdict::inconclusive);
  CompareOptions options;
  options.set_process_allowance("1%");
  ASSERT_TRUE(options.process_allowance.has_value());
  EXPECT_DOUBLE_EQ(*options.process_allowance, 0.01);
  const Comparison c = compare(gpu, gpu, options);
  EXPECT_EQ(c.entries[0].verdict, Verdict::same) << c.entries[0].reason;
  EXPECT_NE(c.notes.back().find("of 1% (--process-allowance)"), std::string::npos)
      << c.notes.back();
}

TEST(CompareProcessAllowance, ABadShareIsNamed) {
  CompareOptions options;
  try {
    options.set_process_allowance("lots");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "process allowance 'lots' is not a share from 0% to below 100%: write e.g. 2% "
                 "or 0.02.");
  }
}

}  // namespace
}  // namespace kerntime
