// SPDX-License-Identifier: Apache-2.0
// Writing a report and reading it back keeps everything the format stores, bit for bit.
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/statistics.hpp>

#include "report/sample_report.hpp"

namespace kerntime {
namespace {

void expect_same_device(const DeviceInfo& a, const DeviceInfo& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.compute_capability_major, b.compute_capability_major);
  EXPECT_EQ(a.compute_capability_minor, b.compute_capability_minor);
  EXPECT_EQ(a.multiprocessor_count, b.multiprocessor_count);
  EXPECT_EQ(a.total_memory_bytes, b.total_memory_bytes);
  EXPECT_EQ(a.l2_cache_bytes, b.l2_cache_bytes);
  EXPECT_EQ(a.sm_clock_khz, b.sm_clock_khz);
  EXPECT_EQ(a.memory_clock_khz, b.memory_clock_khz);
  EXPECT_EQ(a.memory_bus_width_bits, b.memory_bus_width_bits);
  EXPECT_EQ(a.ecc_enabled, b.ecc_enabled);
  EXPECT_EQ(a.pci_bus_id, b.pci_bus_id);
}

TEST(ReportJsonRoundTrip, KeepsEnvironmentWarningsAndEntries) {
  const Report original = testing::sample_report();
  const Report read = parse_report(to_json(original));

  EXPECT_EQ(read.schema, "kerntime-report/1");
  EXPECT_EQ(read.environment.tool_version, "0.1.0");
  EXPECT_EQ(read.environment.created_utc, "2026-11-29T16:10:00Z");
  EXPECT_EQ(read.environment.host_name, "gpu-node-7");
  EXPECT_EQ(read.environment.driver_version, 13000);
  EXPECT_EQ(read.environment.runtime_version, 12080);
  ASSERT_EQ(read.environment.devices.size(), 1u);
  expect_same_device(read.environment.devices[0], original.environment.devices[0]);
  EXPECT_EQ(read.warnings, original.warnings);

  ASSERT_EQ(read.entries.size(), original.entries.size());
  for (std::size_t i = 0; i < read.entries.size(); ++i) {
    SCOPED_TRACE(original.entries[i].name);
    EXPECT_EQ(read.entries[i].name, original.entries[i].name);
    EXPECT_EQ(read.entries[i].unit, "ns");
    EXPECT_EQ(read.entries[i].timer, original.entries[i].timer);
    EXPECT_EQ(read.entries[i].device, original.entries[i].device);
    EXPECT_EQ(read.entries[i].samples, original.entries[i].samples);
  }
}

TEST(ReportJsonRoundTrip, RecomputesStatisticsFromSamples) {
  const Report read = parse_report(to_json(testing::sample_report()));
  const Entry* saxpy = read.find("saxpy");
  ASSERT_NE(saxpy, nullptr);
  const Statistics expected = compute_statistics(saxpy->samples);
  EXPECT_EQ(saxpy->statistics.count, 8u);
  EXPECT_EQ(saxpy->statistics.median, 812.0);
  EXPECT_EQ(saxpy->statistics.min, 809.0);
  EXPECT_EQ(saxpy->statistics.max, 830.25);
  EXPECT_EQ(saxpy->statistics.mean, expected.mean);
  EXPECT_EQ(saxpy->statistics.stddev, expected.stddev);
  const Entry* empty = read.find("empty");
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->statistics.count, 0u);
  EXPECT_FALSE(empty->statistics.stddev.has_value());
}

TEST(ReportJsonRoundTrip, KeepsEveryDoubleExactly) {
  const std::vector<double> samples = {0.0, 0.1, 1.0 / 3.0, std::nextafter(1.0, 2.0),
                                       123456789.12345679, DBL_MIN,
                                       5e-324,  // smallest subnormal
                                       // Large, but not so large that statistics overflow.
                                       1.2345678901234567e100, 1e15 + 0.5, 9007199254740993.0};
  Report report;
  report.entries.push_back(Entry{"k", "ns", "", std::nullopt, samples, {}});
  const Report read = parse_report(to_json(report));
  ASSERT_EQ(read.entries.size(), 1u);
  ASSERT_EQ(read.entries[0].samples.size(), samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(read.entries[0].samples[i], samples[i]) << "samples[" << i << "]";
  }
}

TEST(ReportJsonRoundTrip, ReadingAndWritingAgainChangesNothing) {
  const std::string once = to_json(parse_report(to_json(testing::sample_report())));
  const std::string twice = to_json(parse_report(once));
  EXPECT_EQ(once, twice);
}

// A raw CUDA version that no release reaches (a hand-edited report) used to be written back as
// "2147483.64", which the reader refuses: whatever is read must be written so it reads again.
TEST(ReportJsonRoundTrip, AnyRawCudaVersionReadsBackAfterWriting) {
  for (const int raw : {2147483647, 100000000, 99999999, 1000000, 13000, 12089}) {
    const std::string text = R"({"schema": "kerntime-report/1", "environment": {)"
                             R"("driver_version_raw": )" +
                             std::to_string(raw) + R"(, "runtime_version_raw": )" +
                             std::to_string(raw) + R"(}, "entries": []})";
    const Report read = parse_report(text);
    ASSERT_EQ(read.environment.driver_version, raw);
    Report again;
    ASSERT_NO_THROW(again = parse_report(to_json(read))) << to_json(read);
    EXPECT_EQ(again.environment.driver_version, raw);
    EXPECT_EQ(again.environment.runtime_version, raw);
    EXPECT_EQ(to_json(again), to_json(read));
  }
  // A version people can read keeps its text.
  Report report;
  report.environment.driver_version = 13000;
  EXPECT_NE(to_json(report).find(R"("driver_version": "13.0")"), std::string::npos);
}

}  // namespace
}  // namespace kerntime

namespace kerntime {
namespace {

TEST(ReportJsonRoundTrip, KeepsRunsApart) {
  Report report;
  Entry entry;
  entry.name = "spin";
  entry.samples = {10, 11, 12, 20, 21, 30};
  entry.run_sizes = {3, 2, 1};
  entry.statistics = compute_statistics(entry.samples);
  report.entries = {entry};
  const std::string text = to_json(report);
  EXPECT_NE(text.find("\"runs\": [\n        3,\n        2,\n        1\n      ]"), std::string::npos)
      << text;
  const Report read = parse_report(text);
  ASSERT_EQ(read.entries.size(), 1u);
  EXPECT_EQ(read.entries[0].samples, entry.samples);
  EXPECT_EQ(read.entries[0].run_sizes, entry.run_sizes);
  EXPECT_EQ(read.entries[0].run_count(), 3u);
  const std::vector<std::vector<double>> runs = read.entries[0].runs();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1], (std::vector<double>{20, 21}));
  EXPECT_EQ(read.entries[0].statistics.count, 6u);  // statistics of all samples, as before
  EXPECT_EQ(to_json(read), text);
}

TEST(ReportJsonRoundTrip, OneRunIsWrittenAsBefore) {
  Report report;
  Entry entry;
  entry.name = "k";
  entry.samples = {1, 2, 3};
  report.entries = {entry};
  const std::string plain = to_json(report);
  EXPECT_EQ(plain.find("\"runs\""), std::string::npos) << plain;
  report.entries[0].run_sizes = {3};  // one run spelled out: the same file
  EXPECT_EQ(to_json(report), plain);
  const Report read = parse_report(plain);
  EXPECT_TRUE(read.entries[0].run_sizes.empty());
  EXPECT_EQ(read.entries[0].run_count(), 1u);
  EXPECT_EQ(read.entries[0].runs(), (std::vector<std::vector<double>>{{1, 2, 3}}));
}

TEST(ReportJsonRoundTrip, WriterRefusesRunsThatDoNotPartitionTheSamples) {
  Report report;
  Entry entry;
  entry.name = "k";
  entry.samples = {1, 2, 3};
  entry.run_sizes = {2, 2};
  report.entries = {entry};
  EXPECT_THROW(to_json(report), Error);
  report.entries[0].run_sizes = {3, 0};
  EXPECT_THROW(to_json(report), Error);
  EXPECT_THROW(report.entries[0].runs(), Error);
}

}  // namespace
}  // namespace kerntime
