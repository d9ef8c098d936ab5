// SPDX-License-Identifier: Apache-2.0
// Golden files for the trace views: each must match tests/cupti/golden/ byte for byte.
//
// After an intended change to a view, regenerate the goldens and review the diff:
//   KERNTIME_UPDATE_GOLDEN=1 ctest --test-dir build/<preset> -R TraceFormat
//   git diff tests/cupti/golden/
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/trace_format.hpp>

#include "support/golden.hpp"
#include "support/sample_trace.hpp"

namespace kerntime {
namespace {

void expect_golden(const std::string& file, const std::string& actual) {
  testing::expect_golden(KERNTIME_TEST_DATA_DIR, file, actual);
}

TEST(TraceFormatGolden, KernelSummaryViews) {
  const Trace trace = testing::sample_trace();
  expect_golden("kernels.txt", render_kernel_summary(trace, Format::table));
  expect_golden("kernels.md", render_kernel_summary(trace, Format::markdown));
  expect_golden("kernels.csv", render_kernel_summary(trace, Format::csv));
  expect_golden("kernels.json", render_kernel_summary(trace, Format::json));
  expect_golden("kernels_by_config.txt",
                render_kernel_summary(trace, Format::table, KernelSummaryOptions{true}));
  // --names full: nsys's every column and whole names.
  expect_golden("kernels_full.txt",
                render_kernel_summary(trace, Format::table, {}, NameStyle::full));
  expect_golden("kernels_full.md",
                render_kernel_summary(trace, Format::markdown, {}, NameStyle::full));
}

TEST(TraceFormatGolden, ScopeSummaryViews) {
  const Trace trace = testing::sample_trace();
  const Report events = testing::sample_event_report();
  expect_golden("scopes.txt", render_scope_summary(trace, Format::table, &events));
  expect_golden("scopes.md", render_scope_summary(trace, Format::markdown, &events));
  expect_golden("scopes.csv", render_scope_summary(trace, Format::csv, &events));
  expect_golden("scopes.json", render_scope_summary(trace, Format::json, &events));
}

TEST(TraceFormatGolden, ChromeTrace) {
  expect_golden("timeline.json", to_chrome_trace(testing::sample_trace()));
}

TEST(TraceFormat, TablesAlwaysShowLossCounts) {
  const Trace trace = testing::sample_trace();
  for (const Format format : {Format::table, Format::markdown}) {
    const std::string text = render_kernel_summary(trace, format);
    EXPECT_NE(text.find("dropped records: 2, records without timestamps: 1"), std::string::npos)
        << text;
  }
  const auto json = nlohmann::json::parse(render_scope_summary(trace, Format::json));
  EXPECT_EQ(json["counts"]["dropped_records"], 2);
  EXPECT_EQ(json["counts"]["zero_timestamp_records"], 1);
}

TEST(TraceFormat, ChromeTraceIsValidAndEveryFlowArrives) {
  const auto json = nlohmann::json::parse(to_chrome_trace(testing::sample_trace()));
  std::map<std::uint64_t, int> flows;
  std::map<std::string, int> categories;
  for (const auto& event : json["traceEvents"]) {
    const std::string phase = event["ph"];
    if (phase == "X") {
      EXPECT_GE(event["dur"].get<double>(), 0.0);
      EXPECT_GE(event["ts"].get<double>(), 0.0);
      ++categories[event["cat"].get<std::string>()];
    }
    if (phase == "s") ++flows[event["id"].get<std::uint64_t>()];
    if (phase == "f") flows[event["id"].get<std::uint64_t>()] += 10;
  }
  EXPECT_EQ(categories["kernel"], 6);
  EXPECT_EQ(categories["memcpy"], 1);
  EXPECT_EQ(categories["memset"], 1);
  EXPECT_EQ(categories["cuda_runtime"], 6);
  EXPECT_EQ(categories["scope"], 3);  // step on streams 13 and 14, gemm on 13 (kernels only)
  EXPECT_EQ(flows.size(), 7u);        // every attributed kernel, copy and memset
  for (const auto& [id, count] : flows)
    EXPECT_EQ(count, 11) << "flow " << id;
}

TEST(TraceFormat, EmptyTraceRenders) {
  const Trace empty;
  EXPECT_NE(render_kernel_summary(empty, Format::table).find("(none)"), std::string::npos);
  const auto json = nlohmann::json::parse(to_chrome_trace(empty));
  EXPECT_TRUE(json["traceEvents"].empty());
}

TEST(TraceFormat, WritingToAMissingDirectoryThrows) {
  EXPECT_THROW(write_chrome_trace(Trace{}, "/nonexistent/dir/timeline.json"), Error);
}

}  // namespace
}  // namespace kerntime
