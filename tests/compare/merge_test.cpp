// SPDX-License-Identifier: Apache-2.0
// merge_reports(): repeated runs become one report with more samples.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/report_transforms.hpp>
#include <kerntime/error.hpp>

#include "samples.hpp"

namespace kerntime {
namespace {

using testing::make_entry;

TEST(CompareMerge, SameNamesConcatenateInFirstSeenOrder) {
  Report a;
  a.entries = {make_entry("x", {1, 2, 3}), make_entry("y", {10, 20})};
  Report b;
  b.entries = {make_entry("z", {7}), make_entry("x", {4, 5})};
  const Report merged = merge_reports({a, b}, {"a.json", "b.json"});
  ASSERT_EQ(merged.entries.size(), 3u);
  EXPECT_EQ(merged.entries[0].name, "x");
  EXPECT_EQ(merged.entries[0].samples, (std::vector<double>{1, 2, 3, 4, 5}));
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

}  // namespace
}  // namespace kerntime
