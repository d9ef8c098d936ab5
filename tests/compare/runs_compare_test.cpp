// SPDX-License-Identifier: Apache-2.0
// compare() on reports that keep runs apart: verdicts from the runs, the one-run note, differing
// run counts, and the holes of the gate (another timer, nothing decided).
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>

#include "samples.hpp"

namespace kerntime {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// An entry of `runs` runs of 20 samples each around `median_ns * factor`; every run's level is
// shifted by up to `process_spread` (alternating up and down), the samples by +-0.2 %.
Entry entry_of_runs(const std::string& name, std::size_t runs, double median_ns, double factor,
                    double process_spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.002);
  Entry entry;
  entry.name = name;
  entry.timer = "cupti-kernel";
  for (std::size_t r = 0; r < runs; ++r) {
    const double level = median_ns * factor * (1.0 + (r % 2 == 0 ? 1 : -1) * process_spread / 2);
    for (int i = 0; i < 20; ++i)
      entry.samples.push_back(level * (1.0 + noise(rng)));
    entry.run_sizes.push_back(20);
  }
  if (runs == 1) entry.run_sizes.clear();
  return entry;
}

Report report_of(std::vector<Entry> entries) {
  Report report;
  report.entries = std::move(entries);
  return report;
}

TEST(CompareRuns, ShortStableKernelTenPercentSlowerIsRegressed) {
  // 2.5 us + 10 % is 250 ns: the old fixed 500 ns floor called it "same".
  const Report a = report_of({entry_of_runs("spin", 5, 2530.0, 1.0, 0.0, 1)});
  const Report b = report_of({entry_of_runs("spin", 5, 2530.0, 1.10, 0.0, 2)});
  const Comparison c = compare(a, b);
  const EntryComparison& e = c.entries.front();
  EXPECT_EQ(e.verdict, Verdict::regressed) << e.reason;
  EXPECT_TRUE(e.between_runs);
  EXPECT_EQ(e.baseline->runs, 5u);
  EXPECT_EQ(e.candidate->runs, 5u);
  ASSERT_TRUE(e.run_spread && e.detectable_change);
  EXPECT_LT(*e.detectable_change, 0.05);
  EXPECT_TRUE(c.notes.empty()) << "several runs per side: nothing to say above the table";
  EXPECT_TRUE(contains(render(c, CompareFormat::table), "5+5")) << render(c, CompareFormat::table);
}

TEST(CompareRuns, UnstableKernelIsInconclusiveNamingItsSpread) {
  // Two process levels 6 % apart, as saxpy showed on the H200: a 3 % change cannot be told.
  const Report a = report_of({entry_of_runs("saxpy", 5, 5800.0, 1.0, 0.06, 3)});
  const Report b = report_of({entry_of_runs("saxpy", 5, 5800.0, 1.03, 0.06, 4)});
  const EntryComparison e = compare(a, b).entries.front();
  EXPECT_EQ(e.verdict, Verdict::inconclusive) << e.reason;
  EXPECT_TRUE(contains(e.reason, "per-process medians spread")) << e.reason;
  EXPECT_TRUE(contains(e.reason, "cannot be told from noise")) << e.reason;
}

TEST(CompareRuns, OneRunPerSideIsSaidOnceAboveTheTable) {
  const Report a = report_of({entry_of_runs("long", 1, 100000.0, 1.0, 0.0, 5),
                              entry_of_runs("short", 1, 2500.0, 1.0, 0.0, 6)});
  const Report b = report_of({entry_of_runs("long", 1, 100000.0, 1.10, 0.0, 7),
                              entry_of_runs("short", 1, 2500.0, 1.10, 0.0, 8)});
  const Comparison c = compare(a, b);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0].rfind("one run per side for all entries: the spread between processes "
                             "cannot be seen",
                             0),
            0u)
      << c.notes[0];
  EXPECT_EQ(c.entries[0].verdict, Verdict::regressed) << c.entries[0].reason;
  // 250 ns on 2.5 us is within what such a kernel shifts between processes: not decided.
  EXPECT_EQ(c.entries[1].verdict, Verdict::inconclusive) << c.entries[1].reason;
  const std::string table = render(c, CompareFormat::table);
  EXPECT_EQ(testing::count_of(table, "note: one run per side"), 1u) << table;
  EXPECT_LT(table.find("note: "), table.find("Verdict"));
  EXPECT_TRUE(contains(render(c, CompareFormat::markdown), "> **Note:** one run per side"));
}

TEST(CompareRuns, RunCountsThatDifferWork) {
  const Report a = report_of({entry_of_runs("k", 5, 10000.0, 1.0, 0.0, 9)});
  const Report b = report_of({entry_of_runs("k", 2, 10000.0, 1.10, 0.0, 10)});
  const Comparison c = compare(a, b);
  const EntryComparison& e = c.entries.front();
  EXPECT_EQ(e.verdict, Verdict::regressed) << e.reason;
  EXPECT_TRUE(contains(e.reason, "run counts differ: 5 baseline, 2 candidate")) << e.reason;
  const nlohmann::json j = nlohmann::json::parse(render(c, CompareFormat::json));
  EXPECT_EQ(j["entries"][0]["baseline"]["runs"], 5);
  EXPECT_EQ(j["entries"][0]["candidate"]["runs"], 2);
  EXPECT_EQ(j["entries"][0]["between_runs"], true);
  EXPECT_TRUE(j["entries"][0]["run_spread"].is_number());
  EXPECT_TRUE(j["entries"][0]["detectable_change"].is_number());
  EXPECT_EQ(j["decided"], 1);
  EXPECT_TRUE(j["notes"].empty());
  EXPECT_EQ(j["min_change_ns"], 0.0);
}

TEST(CompareRuns, MinChangeIsAnOptionalExtraFloor) {
  const Report a = report_of({entry_of_runs("spin", 5, 2530.0, 1.0, 0.0, 11)});
  const Report b = report_of({entry_of_runs("spin", 5, 2530.0, 1.10, 0.0, 12)});
  CompareOptions options;
  options.set_min_change("500ns");
  const EntryComparison e = compare(a, b, options).entries.front();
  EXPECT_EQ(e.verdict, Verdict::same) << e.reason;
  EXPECT_TRUE(contains(e.reason, "below the 500 ns set by --min-change")) << e.reason;
}

TEST(CompareRuns, AnotherTimerOnEveryEntryMakesTheComparisonUnusable) {
  // CUPTI missing on the candidate's runner: a 50 % slowdown must not pass.
  Entry slower = entry_of_runs("k", 5, 10000.0, 1.5, 0.0, 13);
  slower.timer = "cuda-event-corrected";
  CompareOptions options;
  options.baseline_source = "base.json";
  options.candidate_source = "new.json";
  const Comparison c = compare(report_of({entry_of_runs("k", 5, 10000.0, 1.0, 0.0, 14)}),
                               report_of({slower}), options);
  EXPECT_FALSE(c.usable());
  EXPECT_EQ(c.unusable_reason,
            "every entry base.json and new.json have in common was measured with another timer "
            "(baseline cupti-kernel, candidate cuda-event-corrected); no entry can be compared: "
            "measure both with the same timer (is CUPTI missing on one machine?)");
}

TEST(CompareRuns, AnotherTimerOnSomeEntriesComparesTheRestWithAWarning) {
  Entry slower = entry_of_runs("kernel", 5, 10000.0, 1.5, 0.0, 15);
  slower.timer = "cuda-event-corrected";
  Entry events = entry_of_runs("scope/events", 5, 10000.0, 1.5, 0.0, 16);
  events.timer = "cuda-event";
  Entry events_base = entry_of_runs("scope/events", 5, 10000.0, 1.0, 0.0, 17);
  events_base.timer = "cuda-event";
  const Comparison c =
      compare(report_of({entry_of_runs("kernel", 5, 10000.0, 1.0, 0.0, 18), events_base}),
              report_of({slower, events}));
  EXPECT_TRUE(c.usable());
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "1 of 2 entries were measured with another timer (baseline cupti-kernel, candidate "
            "cuda-event-corrected) and are not compared; only entries with the same timer on "
            "both sides were judged.");
  EXPECT_EQ(c.entries[1].verdict, Verdict::regressed) << c.entries[1].reason;
  EXPECT_TRUE(c.failed());
}

TEST(CompareRuns, NothingDecidedNeverSaysPassed) {
  const Report a = report_of({testing::make_entry("k", {100, 101, 102})});
  const Comparison c = compare(a, a);
  EXPECT_EQ(c.decided(), 0u);
  EXPECT_FALSE(c.failed());
  const std::string table = render(c, CompareFormat::table);
  EXPECT_FALSE(contains(table, "passed")) << table;
  EXPECT_TRUE(contains(table, ": undecided (no entry could be decided)")) << table;
  EXPECT_EQ(render(c, CompareFormat::markdown).rfind("### kerntime compare: undecided", 0), 0u);
  EXPECT_TRUE(contains(render(c, CompareFormat::junit), R"(name="outcome" value="undecided")"));
}

}  // namespace
}  // namespace kerntime
