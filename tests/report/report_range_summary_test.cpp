// SPDX-License-Identifier: Apache-2.0
// The per-NVTX-range summary of a `kerntime run` report's trace section: its JSON (a golden
// file the schema test also checks), the reader's checks, the merge of several processes'
// rows, and its tables.
//
// After an intended change, regenerate and review the diff:
//   KERNTIME_UPDATE_GOLDEN=1 ctest --test-dir build/<preset> -R ReportRangeSummary
//   git diff tests/report/golden/
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/trace_format.hpp>

#include "support/error_message.hpp"
#include "support/golden.hpp"

namespace kerntime {
namespace {

RangeSummary row(std::string name, std::string domain, std::uint64_t instances,
                 std::uint64_t total_ns, double median_ns, std::uint64_t kernels,
                 std::uint64_t kernel_ns, std::uint64_t self_kernels, std::uint64_t self_ns) {
  RangeSummary r;
  r.name = std::move(name);
  r.domain = std::move(domain);
  r.instances = instances;
  r.total_ns = total_ns;
  r.median_ns = median_ns;
  r.kernels = kernels;
  r.kernel_time_ns = kernel_ns;
  r.self_kernels = self_kernels;
  r.self_kernel_time_ns = self_ns;
  return r;
}

Entry range_entry(const std::string& name, std::vector<double> samples) {
  Entry e;
  e.name = name;
  e.timer = "nvtx-range";
  e.samples = std::move(samples);
  e.statistics = compute_statistics(e.samples);
  return e;
}

// What one process of `kerntime run` over a training loop writes: "step" inside "train", and
// a range of a named domain.
Report run_report() {
  Report report;
  report.environment.tool_version = "0.0.0-test";
  report.entries.push_back(range_entry("nvtx:train", {9'000'000}));
  report.entries.push_back(range_entry("nvtx:step", {4'000'000, 4'500'000}));
  report.entries.push_back(range_entry("nvtx:io:load", {300'000}));
  TraceSection trace;
  trace.counts.kernels = 30;
  trace.range_summary = {row("train", "", 1, 9'000'000, 9'000'000, 30, 2'400'000, 0, 0),
                         row("step", "", 2, 8'500'000, 4'250'000, 30, 2'400'000, 30, 2'400'000),
                         row("load", "io", 1, 300'000, 300'000, 0, 0, 0, 0)};
  report.trace = trace;
  return report;
}

std::string error_of(const std::string& json) {
  return testing::error_message([&] { parse_report(json, "t.json"); });
}

TEST(ReportRangeSummaryGolden, MatchesTheGoldenFile) {
  testing::expect_golden(KERNTIME_TEST_DATA_DIR, "report_with_ranges.json", to_json(run_report()));
}

TEST(ReportRangeSummary, RoundTripKeepsEveryField) {
  const Report read = parse_report(to_json(run_report()));
  ASSERT_TRUE(read.trace.has_value());
  const std::vector<RangeSummary>& rows = read.trace->range_summary;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].name, "step");
  EXPECT_EQ(rows[1].domain, "");
  EXPECT_EQ(rows[1].instances, 2u);
  EXPECT_EQ(rows[1].total_ns, 8'500'000u);
  EXPECT_DOUBLE_EQ(rows[1].median_ns, 4'250'000.0);
  EXPECT_EQ(rows[1].kernels, 30u);
  EXPECT_EQ(rows[1].kernel_time_ns, 2'400'000u);
  EXPECT_EQ(rows[1].self_kernels, 30u);
  EXPECT_EQ(rows[1].self_kernel_time_ns, 2'400'000u);
  EXPECT_EQ(rows[2].domain, "io");
  EXPECT_EQ(to_json(read), to_json(run_report()));
}

TEST(ReportRangeSummary, AReportWithoutRangesHasNoKey) {
  Report report = run_report();
  report.trace->range_summary.clear();
  EXPECT_FALSE(nlohmann::json::parse(to_json(report))["trace"].contains("range_summary"));
}

TEST(ReportRangeSummary, TheReaderNamesThePathOfAMistake) {
  const std::string head = R"({"schema": "kerntime-report/1", "entries": [], "trace": )";
  EXPECT_EQ(error_of(head + R"({"range_summary": [{"instances": 1}]}})"),
            "t.json: trace.range_summary[0].name: missing; every trace record has one");
  EXPECT_EQ(error_of(head + R"({"range_summary": [{"name": "a", "instances": -1}]}})"),
            "t.json: trace.range_summary[0].instances: expected a non-negative integer, got -1");
  EXPECT_EQ(error_of(head + R"({"range_summary": {}}})"),
            "t.json: trace.range_summary: expected an array, got an object");
  // Only name and instances are required.
  const Report minimal =
      parse_report(head + R"({"range_summary": [{"name": "a", "instances": 3}]}})");
  ASSERT_EQ(minimal.trace->range_summary.size(), 1u);
  EXPECT_EQ(minimal.trace->range_summary[0].instances, 3u);
  EXPECT_EQ(minimal.trace->range_summary[0].kernels, 0u);
}

TEST(ReportRangeSummary, ProcessesAddUpAndTheMedianComesFromThePooledSamples) {
  Report second = run_report();
  second.entries[1] = range_entry("nvtx:step", {5'000'000, 5'500'000, 6'000'000});
  second.trace->range_summary[1] =
      row("step", "", 3, 16'500'000, 5'500'000, 45, 3'600'000, 45, 3'600'000);
  second.trace->range_summary.push_back(row("eval", "", 1, 700, 700, 0, 0, 0, 0));
  const Report merged = merge_process_reports({run_report(), second}, {"a", "b"});
  const std::vector<RangeSummary>& rows = merged.trace->range_summary;
  ASSERT_EQ(rows.size(), 4u);  // order of first appearance
  EXPECT_EQ(rows[0].name, "train");
  EXPECT_EQ(rows[1].name, "step");
  EXPECT_EQ(rows[3].name, "eval");
  EXPECT_EQ(rows[0].instances, 2u);
  EXPECT_EQ(rows[1].instances, 5u);
  EXPECT_EQ(rows[1].total_ns, 25'000'000u);
  EXPECT_EQ(rows[1].kernels, 75u);
  EXPECT_EQ(rows[1].self_kernel_time_ns, 6'000'000u);
  EXPECT_DOUBLE_EQ(rows[1].median_ns, 5'000'000.0);  // of the five pooled instances
  EXPECT_EQ(rows[2].domain, "io");
  EXPECT_EQ(rows[2].instances, 2u);
}

TEST(ReportRangeSummaryTable, FollowsTheKernelTableBeforeTheFooter) {
  const std::string table = render_kernel_summary(run_report(), Format::table);
  const auto kernels = table.find("Name");
  const auto ranges = table.find("Range Total");
  const auto footer = table.find("kernels: 30");
  ASSERT_NE(ranges, std::string::npos) << table;
  EXPECT_LT(kernels, ranges);
  EXPECT_LT(ranges, footer);
  EXPECT_NE(table.find("io:load"), std::string::npos) << table;
  EXPECT_NE(table.find("9.000 ms"), std::string::npos) << table;

  const std::string csv = render_range_summary(run_report(), Format::csv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Range,Instances,Range Total (ns),Range Med (ns),Kernels,Kernel Time (ns),"
            "Self Kernels,Self Time (ns)");
  EXPECT_NE(csv.find("step,2,8500000,4250000,30,2400000,30,2400000"), std::string::npos) << csv;

  const auto json = nlohmann::json::parse(render_kernel_summary(run_report(), Format::json));
  ASSERT_EQ(json["ranges"].size(), 3u);
  EXPECT_EQ(json["ranges"][2]["domain"], "io");
  EXPECT_EQ(json["ranges"][1]["self_kernels"], 30);

  Report without = run_report();
  without.trace->range_summary.clear();
  EXPECT_EQ(render_kernel_summary(without, Format::table).find("Range Total"), std::string::npos);
  EXPECT_FALSE(
      nlohmann::json::parse(render_kernel_summary(without, Format::json)).contains("ranges"));
}

}  // namespace
}  // namespace kerntime
