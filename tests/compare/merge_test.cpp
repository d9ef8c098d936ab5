// SPDX-License-Identifier: Apache-2.0
// merge_reports(): repeated runs become one report whose entries keep them apart.
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_transforms.hpp>

#include "samples.hpp"

namespace kerntime {
namespace {

using testing::make_entry;

TEST(CompareMerge, SameNamesBecomeRunsInFirstSeenOrder) {
  Report a;
  a.entries = {make_entry("x", {1, 2, 3}), make_entry("y", {10, 20})};
  Report b;
  b.entries = {make_entry("z", {7}), make_entry("x", {4, 5})};
  const Report merged = merge_reports({a, b}, {"a.json", "b.json"});
  ASSERT_EQ(merged.entries.size(), 3u);
  EXPECT_EQ(merged.entries[0].name, "x");
  EXPECT_EQ(merged.entries[0].samples, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(merged.entries[0].run_sizes, (std::vector<std::size_t>{3, 2}));
  EXPECT_TRUE(merged.entries[1].run_sizes.empty()) << "one run: as a report of one process";
  EXPECT_EQ(merged.entries[0].statistics.count, 5u);
  EXPECT_DOUBLE_EQ(merged.entries[0].statistics.median, 3.0);
  EXPECT_EQ(merged.entries[1].name, "y");
  EXPECT_EQ(merged.entries[2].name, "z");
  EXPECT_TRUE(merged.warnings.empty());
}

TEST(CompareMerge, OneReportIsUnchanged) {
  Report a;
  a.entries = {make_entry("x", {1, 2, 3})};
  a.warnings = {"2 samples throttled"};
  const Report merged = merge_reports({a}, {"a.json"});
  EXPECT_EQ(merged.entries[0].samples, a.entries[0].samples);
  EXPECT_EQ(merged.warnings, a.warnings);
}

TEST(CompareMerge, UnlikeMeasurementsAreRefusedWithBothSources) {
  Report a;
  a.entries = {make_entry("x", {1, 2, 3})};
  Report b = a;
  b.entries[0].unit = "us";
  try {
    merge_reports({a, b}, {"a.json", "b.json"});
    FAIL() << "merged ns with us";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("b.json: entry \"x\""), std::string::npos) << message;
    EXPECT_NE(message.find("in a.json"), std::string::npos) << message;
  }
  b.entries[0].unit = "ns";
  b.entries[0].timer = "cupti";
  EXPECT_THROW(merge_reports({a, b}), Error);
}

TEST(CompareMerge, EnvironmentDifferencesAndWarningsAreKept) {
  Report a;
  a.environment.runtime_version = 13000;
  a.entries = {make_entry("x", {1})};
  Report b = a;
  b.environment.runtime_version = 12080;
  b.warnings = {"3 samples throttled"};
  const Report merged = merge_reports({a, b}, {"a.json", "b.json"});
  EXPECT_EQ(merged.environment.runtime_version, 13000);
  ASSERT_EQ(merged.warnings.size(), 2u);
  EXPECT_EQ(merged.warnings[0],
            "b.json compared with a.json: CUDA runtime differs: baseline 13.0, candidate "
            "12.8.");
  EXPECT_EQ(merged.warnings[1], "b.json: 3 samples throttled");
}

TEST(CompareMerge, ReportsWithRunsContributeEachRun) {
  Report a;
  a.entries = {make_entry("x", {1, 2, 3, 4})};
  a.entries[0].run_sizes = {1, 3};
  Report b;
  b.entries = {make_entry("x", {5, 6})};
  const Report merged = merge_reports({a, b, a}, {"a.json", "b.json", "c.json"});
  EXPECT_EQ(merged.entries[0].run_sizes, (std::vector<std::size_t>{1, 3, 2, 1, 3}));
  EXPECT_EQ(merged.entries[0].runs().size(), 5u);
  EXPECT_EQ(merged.entries[0].statistics.count, 10u);
}

std::string merge_error(const std::vector<Report>& reports) {
  try {
    merge_reports(reports, {"a.json", "b.json"});
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(CompareMerge, DifferentGpuModelsAreRefused) {
  Report a;
  a.environment.devices.resize(1);
  a.environment.devices[0].name = "NVIDIA H200";
  a.environment.devices[0].compute_capability_major = 9;
  a.entries = {make_entry("x", {1, 2})};
  Report b = a;
  b.environment.devices[0].name = "NVIDIA A100-SXM4-80GB";
  b.environment.devices[0].compute_capability_major = 8;
  EXPECT_EQ(merge_error({a, b}),
            "b.json was measured on another GPU than a.json: GPU differs: baseline \"NVIDIA "
            "H200\", candidate \"NVIDIA A100-SXM4-80GB\"; timings on different GPU models are "
            "not comparable. Merge only reports of one GPU model into a baseline.");
  b.environment.devices[0].name = "NVIDIA H200";  // same name, other compute capability
  EXPECT_NE(merge_error({a, b}).find("compute capability differs"), std::string::npos);
}

TEST(CompareMerge, TheSameMeasurementTwiceIsRefused) {
  Report a;
  a.environment.created_utc = "2026-01-01T00:00:00Z";
  a.entries = {make_entry("x", {1, 2, 3})};
  EXPECT_EQ(merge_error({a, a}),
            "b.json holds the same measurement as a.json (same creation time, same samples); "
            "each run must be merged once.");
  Report b = a;
  b.environment.created_utc = "2026-01-01T00:00:01Z";  // another process, same numbers
  EXPECT_EQ(merge_error({a, b}), "no error");
}

TEST(CompareMerge, RunsWithoutSamplesAreRefused) {
  Report a;
  a.entries = {make_entry("x", {1, 2})};
  Report b;
  b.entries = {make_entry("x", {})};
  EXPECT_EQ(merge_error({a, b}),
            "b.json: entry \"x\" has no samples; a run without samples cannot be merged (was "
            "the benchmark interrupted?).");
}

}  // namespace
}  // namespace kerntime
