// SPDX-License-Identifier: Apache-2.0
// What parse_report() accepts: minimal files, unknown fields, partial environments.
#include <cstddef>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime {
namespace {

TEST(ReportJsonReader, AcceptsAMinimalFile) {
  const Report report = parse_report(R"({"schema": "kerntime-report/1",
      "entries": [{"name": "saxpy", "samples": [3, 1.5, 2]}]})");
  EXPECT_EQ(report.schema, "kerntime-report/1");
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_TRUE(report.environment.devices.empty());
  EXPECT_EQ(report.environment.driver_version, 0);
  EXPECT_EQ(report.environment.host_name, "");
  ASSERT_EQ(report.entries.size(), 1u);
  const Entry& entry = report.entries[0];
  EXPECT_EQ(entry.name, "saxpy");
  EXPECT_EQ(entry.unit, "ns");
  EXPECT_EQ(entry.timer, "");
  EXPECT_FALSE(entry.device.has_value());
  EXPECT_EQ(entry.samples, (std::vector<double>{3.0, 1.5, 2.0}));
  EXPECT_EQ(entry.statistics.count, 3u);
  EXPECT_EQ(entry.statistics.median, 2.0);
  EXPECT_EQ(entry.statistics.min, 1.5);
  EXPECT_EQ(entry.statistics.max, 3.0);
}

TEST(ReportJsonReader, AcceptsNoEntriesAndEntriesWithoutSamples) {
  EXPECT_TRUE(parse_report(R"({"schema": "kerntime-report/1", "entries": []})").entries.empty());
  const Report report = parse_report(
      R"({"schema": "kerntime-report/1", "entries": [{"name": "idle", "samples": []}]})");
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_EQ(report.entries[0].statistics.count, 0u);
  EXPECT_FALSE(report.entries[0].statistics.median_ci.has_value());
}

TEST(ReportJsonReader, IgnoresUnknownFieldsAtEveryLevel) {
  const Report report = parse_report(R"({
    "schema": "kerntime-report/1", "comment": {"anything": [1, null]},
    "tool": {"name": "kerntime", "version": "0.9.0", "build": "debug"},
    "environment": {"host": "h", "kernel": "6.8", "devices": [{"index": 1, "uuid": "GPU-1"}]},
    "entries": [{"name": "a", "samples": [1], "tags": ["x"], "extra": null}]
  })");
  EXPECT_EQ(report.environment.tool_version, "0.9.0");
  EXPECT_EQ(report.environment.host_name, "h");
  ASSERT_EQ(report.environment.devices.size(), 1u);
  EXPECT_EQ(report.environment.devices[0].index, 1);
  EXPECT_EQ(report.environment.devices[0].name, "");
  EXPECT_EQ(report.entries.at(0).samples, std::vector<double>{1.0});
}

TEST(ReportJsonReader, RecomputesStatisticsInsteadOfTrustingTheFile) {
  const Report report = parse_report(R"({"schema": "kerntime-report/1", "entries": [
      {"name": "a", "samples": [10, 20, 30],
       "statistics": {"count": 99, "median": 1, "mean": "whatever"}},
      {"name": "b", "samples": [5], "statistics": "not even an object"}]})");
  EXPECT_EQ(report.entries[0].statistics.count, 3u);
  EXPECT_EQ(report.entries[0].statistics.median, 20.0);
  EXPECT_EQ(report.entries[0].statistics.mean, 20.0);
  EXPECT_EQ(report.entries[1].statistics.count, 1u);
  EXPECT_EQ(report.entries[1].statistics.median, 5.0);
}

// `kerntime compare` reads without the median interval (it never shows it), and `kerntime
// report` of several files reads without it because merge_reports() computes it once for the
// merged entries: the result is what reading with it and merging gives.
TEST(ReportJsonReader, StatisticsOptionsCanSkipTheMedianInterval) {
  const std::string a = R"({"schema": "kerntime-report/1", "entries": [
      {"name": "k", "samples": [10, 20, 30, 40]}, {"name": "only_a", "samples": [1, 2, 3]}]})";
  const std::string b = R"({"schema": "kerntime-report/1", "entries": [
      {"name": "k", "samples": [15, 25, 35]}]})";
  StatisticsOptions skip;
  skip.median_interval = false;
  const Report fast_a = parse_report(a, "a.json", skip);
  ASSERT_EQ(fast_a.entries.size(), 2u);
  EXPECT_FALSE(fast_a.entries[0].statistics.median_ci.has_value());
  EXPECT_EQ(fast_a.entries[0].statistics.median, 25.0);
  EXPECT_TRUE(parse_report(a, "a.json").entries[0].statistics.median_ci.has_value());

  const Report slow = merge_reports({parse_report(a), parse_report(b)}, {"a.json", "b.json"});
  const Report fast =
      merge_reports({fast_a, parse_report(b, "b.json", skip)}, {"a.json", "b.json"});
  ASSERT_EQ(fast.entries.size(), slow.entries.size());
  for (std::size_t i = 0; i < fast.entries.size(); ++i) {
    ASSERT_TRUE(fast.entries[i].statistics.median_ci.has_value()) << i;
    EXPECT_EQ(fast.entries[i].statistics.median_ci->low, slow.entries[i].statistics.median_ci->low);
    EXPECT_EQ(fast.entries[i].statistics.median_ci->high,
              slow.entries[i].statistics.median_ci->high);
    EXPECT_EQ(fast.entries[i].statistics.median_ci_method,
              slow.entries[i].statistics.median_ci_method);
  }
  EXPECT_EQ(to_json(fast), to_json(slow));
}

TEST(ReportJsonReader, ReadsFullEntryFields) {
  const Report report = parse_report(R"({"schema": "kerntime-report/1", "entries": [
      {"name": "k", "unit": "ns", "timer": "cupti-kernel", "device": 3, "samples": [7]}]})");
  EXPECT_EQ(report.entries[0].timer, "cupti-kernel");
  EXPECT_EQ(report.entries[0].device, 3);
}

TEST(ReportJsonReader, ReadsCudaVersionsFromTextOrRawNumber) {
  const auto versions = [](const std::string& environment) {
    const Report report = parse_report(R"({"schema": "kerntime-report/1", "entries": [],
        "environment": )" + environment +
                                       "}");
    return std::make_pair(report.environment.driver_version, report.environment.runtime_version);
  };
  EXPECT_EQ(versions(R"({"driver_version": "13.0", "runtime_version": "12.8"})"),
            std::make_pair(13000, 12080));
  EXPECT_EQ(versions(R"({"driver_version_raw": 12090, "runtime_version_raw": 12010})"),
            std::make_pair(12090, 12010));
  // The text drops CUDA's patch digit, so 12081 still agrees with "12.8".
  EXPECT_EQ(versions(R"({"driver_version": "12.8", "driver_version_raw": 12081})"),
            std::make_pair(12081, 0));
  EXPECT_EQ(versions("{}"), std::make_pair(0, 0));
}

TEST(ReportJsonReader, ReadsCreatedToolAndWarnings) {
  const Report report = parse_report(R"({"schema": "kerntime-report/1", "entries": [],
      "created": "2026-11-29T16:10:00Z", "tool": {"name": "kerntime"},
      "warnings": ["clock throttled", "one sample"]})");
  EXPECT_EQ(report.environment.created_utc, "2026-11-29T16:10:00Z");
  EXPECT_EQ(report.environment.tool_version, "");
  EXPECT_EQ(report.warnings, (std::vector<std::string>{"clock throttled", "one sample"}));
}

}  // namespace
}  // namespace kerntime
