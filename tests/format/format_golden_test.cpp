// SPDX-License-Identifier: Apache-2.0
// Golden files: each view of testing::sample_report() must match tests/format/golden/ byte for
// byte.
//
// After an intended change to a view, regenerate the goldens and review the diff:
//   KERNTIME_UPDATE_GOLDEN=1 ctest --test-dir build/<preset> -R format_golden_test
//   git diff tests/format/golden/
#include <string>

#include <gtest/gtest.h>

#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>

#include "report/sample_engine_report.hpp"
#include "report/sample_report.hpp"
#include "support/golden.hpp"

namespace kerntime {
namespace {

void expect_golden(const std::string& file, const std::string& actual) {
  testing::expect_golden(KERNTIME_TEST_DATA_DIR, file, actual);
}

TEST(FormatGolden, Table) {
  expect_golden("report.txt", render(testing::sample_report(), Format::table));
}

TEST(FormatGolden, Markdown) {
  expect_golden("report.md", render(testing::sample_report(), Format::markdown));
}

TEST(FormatGolden, Csv) {
  expect_golden("report.csv", render(testing::sample_report(), Format::csv));
}

TEST(FormatGolden, Json) {
  expect_golden("report.json", render(testing::sample_report(), Format::json));
}

// The JSON golden doubles as a fixed file that this kerntime must keep reading.
TEST(FormatGolden, JsonGoldenReadsBack) {
  if (testing::updating_goldens()) GTEST_SKIP() << "goldens are being regenerated";
  const Report read = read_report_file(std::string(KERNTIME_TEST_DATA_DIR) + "/golden/report.json");
  const Report expected = testing::sample_report();
  ASSERT_EQ(read.entries.size(), expected.entries.size());
  for (std::size_t i = 0; i < read.entries.size(); ++i) {
    EXPECT_EQ(read.entries[i].name, expected.entries[i].name);
    EXPECT_EQ(read.entries[i].samples, expected.entries[i].samples);
  }
  EXPECT_EQ(read.environment.devices.at(0).total_memory_bytes, 150754820096u);
}

// A report of the benchmark engine adds how each entry was measured to every view.
TEST(FormatGolden, EngineReportTable) {
  expect_golden("engine_report.txt", render(testing::sample_engine_report(), Format::table));
}

TEST(FormatGolden, EngineReportMarkdown) {
  expect_golden("engine_report.md", render(testing::sample_engine_report(), Format::markdown));
}

TEST(FormatGolden, EngineReportCsv) {
  expect_golden("engine_report.csv", render(testing::sample_engine_report(), Format::csv));
}

TEST(FormatGolden, EngineReportJson) {
  expect_golden("engine_report.json", render(testing::sample_engine_report(), Format::json));
}

// Its JSON golden reads back with every measurement, so that this kerntime keeps reading it.
TEST(FormatGolden, EngineJsonGoldenReadsBack) {
  if (testing::updating_goldens()) GTEST_SKIP() << "goldens are being regenerated";
  const Report read =
      read_report_file(std::string(KERNTIME_TEST_DATA_DIR) + "/golden/engine_report.json");
  const Report expected = testing::sample_engine_report();
  ASSERT_EQ(read.entries.size(), expected.entries.size());
  for (std::size_t i = 0; i < read.entries.size(); ++i) {
    SCOPED_TRACE(expected.entries[i].name);
    EXPECT_EQ(read.entries[i].samples, expected.entries[i].samples);
    ASSERT_EQ(read.entries[i].measurement != nullptr, expected.entries[i].measurement != nullptr);
    if (!expected.entries[i].measurement) continue;
    const MeasurementInfo& a = *read.entries[i].measurement;
    const MeasurementInfo& b = *expected.entries[i].measurement;
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.stop_reason, b.stop_reason);
    EXPECT_EQ(a.batch_size, b.batch_size);
    EXPECT_EQ(a.kernel_fixed_cost_ns, b.kernel_fixed_cost_ns);
    EXPECT_EQ(a.kernel_fixed_cost_source, b.kernel_fixed_cost_source);
    EXPECT_EQ(a.throughput.gb_per_s, b.throughput.gb_per_s);
    EXPECT_EQ(a.throughput.tflop_per_s, b.throughput.tflop_per_s);
    EXPECT_EQ(a.work.elements, b.work.elements);
    EXPECT_EQ(a.throughput.elements_per_s, b.throughput.elements_per_s);
    ASSERT_EQ(a.counters.size(), b.counters.size());
    for (std::size_t c = 0; c < a.counters.size(); ++c) {
      EXPECT_EQ(a.counters[c].name, b.counters[c].name);
      EXPECT_EQ(a.counters[c].value, b.counters[c].value);
      EXPECT_EQ(a.counters[c].kind, b.counters[c].kind);
    }
  }
  EXPECT_EQ(render(read, Format::table), render(expected, Format::table));
}

}  // namespace
}  // namespace kerntime
